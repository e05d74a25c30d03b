import Foundation
import NotifySystem
package import NotifyTraceViewer

/// `notifytop --demo`: the demo app as a child process, found next to the notifytop binary,
/// attached to as soon as its socket answers, and stopped when notifytop exits.
package final class DemoProcess {
    /// Why the demo could not be started or reached.
    package enum Failure: Error, CustomStringConvertible {
        /// No `notify-demo` binary next to notifytop or on PATH.
        case notFound
        /// The child could not be started.
        case launch(String)
        /// The child exited or never opened its socket.
        case noSocket(String)

        /// One line for the user.
        package var description: String {
            switch self {
            case .notFound: "notify-demo not found next to notifytop or on PATH: run `swift build` first"
            case .launch(let why): "cannot start notify-demo: \(why)"
            case .noSocket(let why): why
            }
        }
    }

    private let child: ChildProcess
    /// Where the demo's own output goes, so it does not scribble over the dashboard.
    package let logPath: String

    /// The child's process id.
    package var pid: Int32 { child.pid }

    /// Finds `notify-demo`: beside the running executable first, then on PATH; a notifytop run
    /// from a package's build directory with no demo beside it (`swift run notifytop --demo` on a
    /// fresh clone: SwiftPM builds only notifytop) builds it there first.
    package static func locate() -> String? {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let sibling = (executable as NSString).deletingLastPathComponent + "/notify-demo"
        if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/notify-demo"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        if let build = PackageBuild(executable: executable), build.buildDemo(),
            FileManager.default.isExecutableFile(atPath: sibling)
        {
            return sibling
        }
        return nil
    }

    /// `arguments` with the demo asked to wait (up to 10 s) for its viewer before it starts, so
    /// `--demo` watches it from its first event, unless the user chose the wait themselves.
    package static func watchedFromTheStart(_ arguments: [String]) -> [String] {
        arguments.contains { $0 == "--wait-for-viewer" || $0.hasPrefix("--wait-for-viewer=") }
            ? arguments : ["--wait-for-viewer", "10"] + arguments
    }

    /// Starts the demo with `arguments`, its output going to a log file.
    package init(arguments: [String]) throws(Failure) {
        guard let path = Self.locate() else { throw .notFound }
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFYTOP"] = "1"
        // A fresh name made exclusively (mkstemps): a file or link planted in the shared temporary
        // directory is never written through.
        var template = Array((NSTemporaryDirectory() + "notifytop-demo-\(getpid())-XXXXXX.log").utf8CString)
        let log = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard log >= 0 else {
            throw .launch(
                "cannot create the demo's log in \(NSTemporaryDirectory()): \(String(cString: strerror(errno)))")
        }
        defer { close(log) }
        logPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .launch("cannot open /dev/null: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        do {
            child = try ChildProcess(
                [path] + arguments, input: input, output: log, error: log,
                environment: environment.map { "\($0)=\($1)" })
        } catch {
            throw .launch("\(error)")
        }
    }

    /// Waits until the demo's socket accepts a viewer and returns a reader on it.
    package func attach(timeoutSeconds: Double = 15) throws(Failure) -> TraceReader {
        let socket = SocketDirectory.standard.socketPath(for: pid)
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if let ended = child.termination() {
                throw .noSocket("notify-demo ended (\(ended)); see \(logPath)")
            }
            if FileManager.default.fileExists(atPath: socket), let reader = try? TraceReader.connect(socketPath: socket)
            {
                return reader
            }
            usleep(20_000)
        }
        throw .noSocket("notify-demo did not open \(socket) within \(Int(timeoutSeconds)) s; see \(logPath)")
    }

    /// Stops the demo: SIGTERM, then SIGKILL after two seconds.
    package func terminate() {
        child.terminate(graceMilliseconds: 2_000)
    }
}
