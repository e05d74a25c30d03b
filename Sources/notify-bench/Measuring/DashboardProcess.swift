import Foundation
import NotifySystem

/// Starts ``DashboardChild`` on a pseudo-terminal of 120×40, as a user's terminal would be, and
/// drains what it draws; ``wait()`` returns what the child measured.
///
/// The child gets a session of its own, as notifytop has when attached to an app started
/// elsewhere: with the kernel's autogroup scheduling, the busy producer in this process then
/// shares the CPUs with the dashboard process as a whole, not thread by thread.
final class DashboardProcess {
    enum Failure: Error, CustomStringConvertible {
        case pseudoTerminal(Int32)
        case launch(TraceError)
        case noResult(ChildProcess.Termination)

        var description: String {
            switch self {
            case .pseudoTerminal(let error): "cannot open a pseudo-terminal: \(String(cString: strerror(error)))"
            case .launch(let error): "cannot start the dashboard child: \(error)"
            case .noResult(let termination): "the dashboard child ended (\(termination)) with no result"
            }
        }
    }

    private let child: ChildProcess
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

        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let arguments = [
            executable, DashboardChild.flag, socket, resultPath, String(warmUpFrames), String(measuredFrames),
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment["LINES"] = "40"
        environment["COLUMNS"] = "120"
        do {
            child = try ChildProcess(
                arguments, input: slave, output: slave, error: slave,
                environment: environment.map { "\($0)=\($1)" })
        } catch {
            throw .launch(error)
        }

        let master = self.master
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while buffer.withUnsafeMutableBytes({ read(master, $0.baseAddress, $0.count) }) > 0 {}
        }
    }

    var isRunning: Bool { child.termination() == nil }

    /// Waits for the child to exit and returns its measurement.
    func wait() throws(Failure) -> DashboardChild.Result {
        let termination = child.wait(timeoutMilliseconds: .max) ?? child.terminate()
        defer { unlink(resultPath) }
        guard let text = try? String(contentsOfFile: resultPath, encoding: .utf8),
            let result = DashboardChild.Result(line: text)
        else { throw .noResult(termination) }
        return result
    }

    /// Stops a child that is still running.
    func terminate() {
        child.terminate()
        unlink(resultPath)
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
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("glibc lacks \(name)")
        }
        return unsafeBitCast(symbol, to: type)
    }
}
