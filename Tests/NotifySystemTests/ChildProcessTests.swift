import Foundation
import NotifySystem
import Testing

/// The child processes notifytop starts (ssh): what they write is collected, how they ended is
/// reported, and one that will not stop on SIGTERM is killed.
@Suite(.timeLimit(.minutes(10)))
struct ChildProcessTests {
    @Test func runCollectsBothStreamsAndTheStatus() throws {
        let output = try ChildProcess.run(["sh", "-c", "echo out; echo err >&2; exit 3"], timeoutMilliseconds: 30_000)
        #expect(output.termination == .exited(3))
        #expect(String(decoding: output.standardOutput, as: UTF8.self) == "out\n")
        #expect(String(decoding: output.standardError, as: UTF8.self) == "err\n")
    }

    @Test func aChildRunsInASessionOfItsOwnWithSigpipeAtItsDefault() throws {
        signal(SIGPIPE, SIG_IGN)
        // Field 6 of /proc/self/stat is the session id; SigIgn is the mask of ignored signals.
        let output = try ChildProcess.run(
            ["sh", "-c", "cut -d' ' -f6 /proc/$$/stat; grep SigIgn /proc/$$/status"], timeoutMilliseconds: 30_000)
        let lines = String(decoding: output.standardOutput, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first.flatMap { Int32($0) } != getsid(0), "not notifytop's session, so not its terminal")
        let ignored = try #require(lines.last.flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) })
        #expect(ignored & (1 << (UInt64(SIGPIPE) - 1)) == 0, "SIGPIPE is not ignored in the child")
    }

    @Test("a child sees its three standard streams and no descriptor of ours, close-on-exec or not")
    func aChildInheritsNoOtherDescriptor() throws {
        let inheritable = open("/dev/null", O_RDONLY)
        try #require(inheritable >= 3)
        defer { close(inheritable) }
        #expect(fcntl(inheritable, F_GETFD) & FD_CLOEXEC == 0, "open without O_CLOEXEC")
        // Built-ins only (`[` and `echo`): no program found on PATH.
        let script = "for fd in 0 1 2 \(inheritable); do if [ -e /proc/$$/fd/$fd ]; then echo $fd; fi; done"
        let output = try ChildProcess.run(["/bin/sh", "-c", script], timeoutMilliseconds: 30_000)
        #expect(output.termination == .exited(0))
        #expect(String(decoding: output.standardOutput, as: UTF8.self) == "0\n1\n2\n")
    }

    @Test func terminateKillsAChildThatIgnoresSigterm() throws {
        let null = open("/dev/null", O_RDWR)
        defer { close(null) }
        let ready = try ChildProcess.makePipe()
        defer { close(ready[0]) }
        let child = try ChildProcess(
            ["sh", "-c", "trap '' TERM; echo ready; exec sleep 60"], input: null, output: ready[1], error: null)
        close(ready[1])
        var byte: UInt8 = 0
        #expect(read(ready[0], &byte, 1) == 1, "the trap is set")
        #expect(child.termination() == nil)
        #expect(child.terminate(graceMilliseconds: 100) == .signaled(SIGKILL))
        #expect(child.termination() == .signaled(SIGKILL))
    }

    @Test("a child that never stops writing is stopped at the output limit, with what fitted kept")
    func aChildThatNeverStopsWritingIsStoppedAtTheLimit() throws {
        let output = try ChildProcess.run(
            ["sh", "-c", "exec cat /dev/zero"], timeoutMilliseconds: 60_000, maximumOutputBytes: 1 << 20)
        #expect(output.exceededOutputLimit)
        #expect(output.termination == nil, "killed, not ended")
        #expect(output.standardOutput.count == 1 << 20)
        let small = try ChildProcess.run(
            ["sh", "-c", "printf 12345"], timeoutMilliseconds: 30_000, maximumOutputBytes: 5)
        #expect(!small.exceededOutputLimit, "exactly the limit is within it")
        #expect(small.termination == .exited(0))
    }

    @Test func aProgramThatIsNotThereIsAnError() {
        #expect(throws: TraceError.self) {
            try ChildProcess.run(["notifytop-no-such-program"], timeoutMilliseconds: 1_000)
        }
    }
}
