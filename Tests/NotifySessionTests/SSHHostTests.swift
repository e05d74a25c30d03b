import Foundation
import NotifySession
import NotifySystem
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyTraceViewer
import NotifyWire
import Testing

/// ``SSHHost`` against a stand-in for `ssh`: a shell script that records its arguments and plays
/// one part (a relay's listing, a stream, a failure), so the transport's child process, socket
/// pair and error path run for real without a server.
@Suite(.timeLimit(.minutes(10)))
struct SSHHostTests {
    final class FakeSSH {
        let directory = temporaryPath("fake-ssh")
        var program: String { directory + "/ssh" }
        var argumentsFile: String { directory + "/arguments" }

        /// `body` is the script after its arguments are saved, one per line.
        init(_ body: String) throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try play(body)
        }

        /// Rewrites the script with another `body`.
        func play(_ body: String) throws {
            var script = "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(argumentsFile)'\n" + body + "\n"
            // Close-on-exec, unlike Foundation's writes: a child another test starts meanwhile
            // must not keep the script open for writing, or running it fails (ETXTBSY).
            unlink(program)
            let fd = open(program, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
            guard fd >= 0 else { throw TraceError.system("cannot create \(program)", errno) }
            defer { close(fd) }
            let written = script.withUTF8 { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard written == script.utf8.count else { throw TraceError.system("cannot write \(program)", errno) }
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func host(timeoutSeconds: Int = 10) throws -> SSHHost {
            var configuration = SSHHost.Configuration(destination: try #require(SSHDestination(text: "deploy@stage")))
            configuration.program = program
            configuration.connectTimeoutSeconds = timeoutSeconds
            return SSHHost(configuration)
        }

        func arguments() throws -> [String] {
            try String(contentsOfFile: argumentsFile, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        func write(_ events: [TraceEvent]) throws -> String {
            var bytes: [UInt8] = []
            TraceEncoder.encode(events, into: &bytes)
            let path = directory + "/trace.ndjson"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    static let process = InspectableProcess(pid: 42, socketPath: "/d/42.sock", name: "shop", uptimeSeconds: 3)

    @Test func listingRunsTheRelayListOnTheHost() throws {
        let fake = try FakeSSH(
            "printf 'notifytop-relay\\t1\\t/run/user/1/notifytop\\n42\\t3.5\\tshop\\t/run/user/1/notifytop/42.sock\\n'")
        let listing = try fake.host().inspectableProcesses()
        #expect(listing.directory == "/run/user/1/notifytop on deploy@stage")
        #expect(listing.processes.map(\.pid) == [42])
        #expect(listing.processes.first?.name == "shop")
        #expect(try fake.arguments().suffix(3) == ["--", "stage", "notifytop --relay --list"])
    }

    @Test func aStreamArrivesThroughTheChildAndEndsWhenTheHostCloses() throws {
        let fake = try FakeSSH("")
        // As the relay does: the stream, then wait until the viewer closes standard input.
        try fake.play("cat '\(try fake.write(Fixture.events()))'\ncat > /dev/null")
        let host = try fake.host()
        let reader = try host.open(Self.process)
        #expect(reader.origin == "deploy@stage pid 42")
        var events: [TraceEvent] = []
        while events.count < Fixture.events().count {
            guard case .event(let event) = reader.next(timeoutMilliseconds: 10_000) else { break }
            events.append(event)
        }
        #expect(events == Fixture.events())
        #expect(try fake.arguments().last == "notifytop --relay --pid 42")
        host.close()
        var end: TraceReader.Output = .idle
        for _ in 0..<100 {
            end = reader.next(timeoutMilliseconds: 100)
            if case .ended = end { break }
        }
        #expect(end == .ended(.disconnected), "closing the host ends the child and so the stream")
    }

    /// The message `body` failed with; nil when it did not fail.
    static func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            #expect(error is HostFailure)
            return "\(error)"
        }
    }

    @Test func whySshEndedAStreamIsOneLine() throws {
        let fake = try FakeSSH("")
        try fake.play(
            "cat '\(try fake.write(Fixture.events()))'\necho 'Timeout, server stage not responding.' >&2\nexit 255")
        let host = try fake.host()
        let reader = try host.open(Self.process)
        var end: TraceReader.Output = .idle
        for _ in 0..<10_000 {
            end = reader.next(timeoutMilliseconds: 100)
            if case .ended = end { break }
        }
        #expect(end == .ended(.disconnected))
        #expect(
            host.endedStreamFailure(waitMilliseconds: 10_000)
                == "ssh deploy@stage failed: Timeout, server stage not responding.")
        withExtendedLifetime(fake) {}
    }

    @Test func aStreamWhoseSshRunsOrEndedCleanlyHasNoFailure() throws {
        let fake = try FakeSSH("")
        try fake.play("cat '\(try fake.write(Fixture.events()))'\ncat > /dev/null")
        let host = try fake.host()
        _ = try host.open(Self.process)
        #expect(host.endedStreamFailure() == nil, "still running")
        withExtendedLifetime(fake) {}
    }

    @Test func closingTheHostEndsItsSharedConnection() throws {
        let fake = try FakeSSH("")
        var configuration = try fake.host().configuration
        configuration.controlPath = fake.directory + "/control"
        SSHHost(configuration).close()
        #expect(!FileManager.default.fileExists(atPath: fake.argumentsFile), "no shared connection, nothing to end")
        _ = FileManager.default.createFile(atPath: fake.directory + "/control", contents: nil)
        SSHHost(configuration).close()
        #expect(try fake.arguments() == ["-o", "ControlPath=\(fake.directory)/control", "-O", "exit", "--", "stage"])
    }

    @Test func aChildThatFailsBeforeTheStreamIsOneLine() throws {
        let fake = try FakeSSH("echo 'deploy@stage: Permission denied (publickey).' >&2\nexit 255")
        let host = try fake.host()
        let refused = "deploy@stage refused the login (permission denied)"
        #expect(Self.failure { _ = try host.open(Self.process) }?.hasPrefix(refused) == true)
        #expect(Self.failure { _ = try host.inspectableProcesses() }?.hasPrefix(refused) == true)
        withExtendedLifetime(fake) {}
    }

    @Test func aRelayErrorComesBackAsItsLine() throws {
        let fake = try FakeSSH("echo 'notifytop: process 42 is not inspectable' >&2\nexit 1")
        let host = try fake.host()
        #expect(Self.failure { _ = try host.open(Self.process) } == "deploy@stage: process 42 is not inspectable")
        withExtendedLifetime(fake) {}
    }

    @Test func aStreamThatEndsBeforeItsFirstByteIsAFailure() throws {
        let fake = try FakeSSH("exit 0")
        let host = try fake.host()
        #expect(
            Self.failure { _ = try host.open(Self.process) }
                == "deploy@stage: notifytop --relay ended without sending anything")
        withExtendedLifetime(fake) {}
    }

    @Test func aHostThatNeverAnswersIsGivenUpOn() throws {
        let fake = try FakeSSH("exec sleep 60")
        let host = try fake.host(timeoutSeconds: 1)
        #expect(
            Self.failure { _ = try host.inspectableProcesses() }
                == "deploy@stage did not answer within 2 s (ssh was stopped)")
        withExtendedLifetime(fake) {}
    }
}
