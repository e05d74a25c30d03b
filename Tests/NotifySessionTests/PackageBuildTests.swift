import NotifySession
import Testing

/// `swift run notifytop --demo` on a fresh clone: notifytop finds the package it was built in.
struct PackageBuildTests {
    @Test("a binary in a package's build directory names the package, its scratch directory and configuration")
    func insideABuild() throws {
        let build = try #require(
            PackageBuild(executable: "/src/app/.build/x86_64-unknown-linux-gnu/debug/notifytop") { $0 == "/src/app" })
        #expect(build.package == "/src/app")
        #expect(build.scratch == "/src/app/.build")
        #expect(build.configuration == "debug")
        #expect(
            build.command == [
                "swift", "build", "--product", "notify-demo", "-c", "debug", "--package-path", "/src/app",
                "--scratch-path", "/src/app/.build",
            ])
        let tsan = try #require(
            PackageBuild(executable: "/src/app/.build-tsan/x86_64-unknown-linux-gnu/release/notifytop") {
                $0 == "/src/app"
            })
        #expect(tsan.scratch == "/src/app/.build-tsan" && tsan.configuration == "release")
    }

    @Test("an installed binary, or a build directory with no manifest beside it, is no package build")
    func outsideABuild() {
        #expect(PackageBuild(executable: "/usr/local/bin/notifytop") { _ in true } == nil)
        #expect(
            PackageBuild(executable: "/src/app/.build/x86_64-unknown-linux-gnu/debug/notifytop") { _ in false } == nil)
        #expect(PackageBuild(executable: "/src/app/build/debug/notifytop") { _ in true } == nil)
    }
}
