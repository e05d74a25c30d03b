import Foundation
import NotifySystem

/// The SwiftPM build a notifytop binary runs from: `<package>/<scratch>/<triple>/<configuration>/notifytop`,
/// where the package directory holds `Package.swift` and the scratch directory's name starts with `.build`.
package struct PackageBuild: Equatable {
    package let package: String
    package let scratch: String
    package let configuration: String

    /// Nil when `executable` is not in a package's build directory (an installed notifytop).
    package init?(executable: String, isPackage: (String) -> Bool = PackageBuild.holdsManifest) {
        var directory = (executable as NSString).deletingLastPathComponent
        let configuration = (directory as NSString).lastPathComponent
        guard configuration == "debug" || configuration == "release" else { return nil }
        while directory != "/" && !directory.isEmpty {
            let parent = (directory as NSString).deletingLastPathComponent
            if (directory as NSString).lastPathComponent.hasPrefix(".build") && isPackage(parent) {
                self.package = parent
                self.scratch = directory
                self.configuration = configuration
                return
            }
            directory = parent
        }
        return nil
    }

    private static func holdsManifest(_ directory: String) -> Bool {
        FileManager.default.fileExists(atPath: directory + "/Package.swift")
    }

    /// The command that builds notify-demo beside notifytop.
    package var command: [String] {
        [
            "swift", "build", "--product", "notify-demo", "-c", configuration, "--package-path", package,
            "--scratch-path", scratch,
        ]
    }

    /// Runs ``command`` with its output on standard error (before any screen is drawn); true when it
    /// succeeded.
    func buildDemo() -> Bool {
        let announcement = "notifytop: building notify-demo once: \(command.joined(separator: " "))\n"
        FileHandle.standardError.write(Data(announcement.utf8))
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { close(input) }
        guard
            let build = try? ChildProcess(
                ["/usr/bin/env"] + command, input: input, output: STDERR_FILENO, error: STDERR_FILENO)
        else { return false }
        return build.wait(timeoutMilliseconds: .max) == .exited(0)
    }
}
