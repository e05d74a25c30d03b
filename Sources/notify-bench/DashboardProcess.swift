import Foundation

/// Starts ``DashboardChild`` on a pseudo-terminal of 120×40, as a user's terminal would be, and
/// drains what it draws; ``wait()`` returns what the child measured.
final class DashboardProcess {
    enum Failure: Error, CustomStringConvertible {
        case pseudoTerminal(Int32)
        case launch(String)
        case noResult(Int32)

        var description: String {
            switch self {
            case .pseudoTerminal(let error): "cannot open a pseudo-terminal: \(String(cString: strerror(error)))"
            case .launch(let why): "cannot start the dashboard child: \(why)"
            case .noResult(let status): "the dashboard child exited with status \(status) and no result"
            }
        }
    }

    private let process = Process()
    private let master: Int32
    private let resultPath: String

    /// Starts the child attached to `socket`, rendering `warmUpFrames` then `measuredFrames` frames.
    init(socket: String, warmUpFrames: Int, measuredFrames: Int) throws(Failure) {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0, PseudoTerminalCalls.grantpt(master) == 0, PseudoTerminalCalls.unlockpt(master) == 0,
              let name = PseudoTerminalCalls.ptsname(master)
        else { throw .pseudoTerminal(errno) }
        let slave = open(String(cString: name), O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw .pseudoTerminal(errno) }
        defer { close(slave) }
        resultPath = NSTemporaryDirectory() + "notify-bench-dashboard-\(getpid()).result"
        unlink(resultPath)
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [DashboardChild.flag, socket, resultPath, String(warmUpFrames), String(measuredFrames)]
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment["LINES"] = "40"
        environment["COLUMNS"] = "120"
        process.environment = environment
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        do { try process.run() } catch { throw .launch("\(error)") }
        let master = self.master
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while buffer.withUnsafeMutableBytes({ read(master, $0.baseAddress, $0.count) }) > 0 {}
        }
    }

    var isRunning: Bool { process.isRunning }

    /// Waits for the child to exit and returns its measurement.
    func wait() throws(Failure) -> DashboardChild.Result {
        process.waitUntilExit()
        defer { unlink(resultPath) }
        guard let text = try? String(contentsOfFile: resultPath, encoding: .utf8),
              let result = DashboardChild.Result(line: text)
        else { throw .noResult(process.terminationStatus) }
        return result
    }

    /// Stops a child that is still running.
    func terminate() {
        if process.isRunning { process.terminate() }
    }

    deinit { close(master) }
}

/// glibc's pseudo-terminal calls, which the Glibc module does not import (they need _XOPEN_SOURCE).
private enum PseudoTerminalCalls {
    typealias Control = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    static let grantpt = function("grantpt", as: Control.self)
    static let unlockpt = function("unlockpt", as: Control.self)
    static let ptsname = function("ptsname", as: Name.self)

    private static func function<Function>(_ name: String, as type: Function.Type) -> Function {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { fatalError("glibc lacks \(name)") }
        return unsafeBitCast(symbol, to: type)
    }
}
