import ArgumentParser
import Foundation
import NotifyCommandLine
import NotifySession
import NotifySystem
import NotifyTestSupport
import Testing

/// Errors about the process to attach to: a pid that names no process is called so, and the
/// list of processes that can be inspected prints as lines, not as one line with `?` for breaks.
@Suite(.timeLimit(.minutes(10)))
struct AttachErrorTests {
    static let one = InspectableProcess(pid: 42, socketPath: "/d/42.sock", name: "shop", uptimeSeconds: 3)

    /// The pid of a process that has exited and been reaped.
    static func deadPid() throws -> Int32 { try ChildProcess.reapedPid() }

    @Test("a pid that names no process is 'no such process'; a live one without a socket is not inspectable")
    func deadOrUninspectable() throws {
        let listing = HostListing(directory: "/d", processes: [Self.one])
        let dead = try Self.deadPid()
        #expect(!AttachTarget.isRunning(dead))
        #expect(AttachTarget.isRunning(getpid()))
        do {
            _ = try AttachTarget.choose(pid: dead, from: listing, isRunning: AttachTarget.isRunning)
            Issue.record("chose a process for a dead pid")
        } catch {
            #expect(
                "\(error)".hasPrefix("no such process \(dead); these can be inspected:\n    PID  UPTIME"), "\(error)")
        }
        do {
            _ = try AttachTarget.choose(pid: getpid(), from: listing, isRunning: AttachTarget.isRunning)
            Issue.record("chose a process for a pid without a socket")
        } catch {
            #expect("\(error)".hasPrefix("process \(getpid()) is not inspectable (start it with NOTIFYTOP=1)"))
        }
        // A remote host's pids cannot be asked about: only the listing speaks.
        do {
            _ = try AttachTarget.choose(pid: dead, from: listing)
        } catch {
            #expect("\(error)".hasPrefix("process \(dead) is not inspectable"))
        }
    }

    @Test("notifytop --pid of a dead process says 'no such process'")
    func runnerSaysNoSuchProcess() throws {
        let options = try NotifyTopOptions.parse(["--pid", String(try Self.deadPid())])
        var errors: [String] = []
        #expect(NotifyTopRunner.run(options) { errors.append($0) } == 1)
        #expect(errors.first?.hasPrefix("notifytop: no such process \(options.pid!)") == true, "\(errors)")
    }

    @Test("an error with a table prints each line as a line; control characters still print as ?")
    func linesStayLines() {
        let text = AttachTarget.Failure.notRunning(7, [Self.one]).description
        let printed = NotifyTopRunner.errorText("notifytop: " + text + "\u{1B}]0;x")
        #expect(printed.split(separator: "\n").count == 3, "\(printed)")
        #expect(printed.hasPrefix("notifytop: no such process 7; these can be inspected:\n    PID  UPTIME"))
        #expect(printed.contains("     42  3s      shop"))
        #expect(printed.hasSuffix("/d/42.sock?]0;x\n"))
        #expect(!printed.contains("\u{1B}"))
    }
}
