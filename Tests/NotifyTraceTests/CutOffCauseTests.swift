import Foundation
import NotifyKit
import NotifyTestSupport
import NotifyWire
@testable import NotifySystem
@testable import NotifyTraceApp
@testable import NotifyTraceViewer
import Testing

private let ping = Notification.Name("cutoff.ping")

/// A viewer the app cuts off for falling behind learns why: its stream ends with gaps counting
/// what it lost and an `end` line saying how long it was behind, how many events the cut-off lost
/// it and how many bytes were queued, even when it was stopped past the cut-off.
@Suite("Cut-off cause", .serialized, .timeLimit(.minutes(10)))
struct CutOffCauseTests {
    @Test("cutting off a viewer that fell behind writes how long, how many events and how many bytes into its end line")
    func endLineSaysHowFarBehind() throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        var size: Int32 = 4096
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let viewer = UnixSocket(descriptor: fds[1])
        defer { viewer.close() }
        let connection = ViewerConnection(socket: UnixSocket(descriptor: fds[0]), eventLimit: 8_000)
        let start: UInt64 = 1_000
        for seq in UInt64(1)...400 {
            var line: [UInt8] = []
            TraceEncoder.encode(
                .checkpoint(TraceCheckpoint(seq: seq, timestamp: seq, thread: 1, label: "checkpoint", callsite: 1)),
                into: &line)
            connection.enqueue(line[...], as: .event(seq: seq, events: 1), now: start + seq)
        }
        let behindSince = try #require(connection.behindSince)
        let queued = connection.queuedByteCount
        let cutAt = behindSince + 5_000_000_000
        let lost = connection.cutOffBehind(seq: 401, now: cutAt)
        #expect(lost > 0)
        var received: [TraceEvent] = []
        var decoder = TraceDecoder()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for _ in 0..<200 where received.last?.kind != .end {
            connection.flush()
            while let count = buffer.withUnsafeMutableBytes({ viewer.read(into: $0, timeoutMilliseconds: 10) }),
                count > 0
            {
                decoder.feed(buffer[..<count])
            }
            while let event = try decoder.next() { received.append(event) }
        }
        guard case .end(let end) = try #require(received.last) else {
            Issue.record("no end line")
            return
        }
        #expect(end.reason == .disconnected)
        #expect(end.behindNanoseconds == 5_000_000_000)
        #expect(end.missedEvents == lost)
        #expect(end.queuedBytes == UInt64(queued))
        let account = StreamAccount(received)
        #expect(UInt64(account.events) + account.lost == 400)
        #expect(account.unaccountedSeq == [])
    }

    @Test(
        "a viewer process stopped with SIGSTOP past the cut-off reads, once continued, a gap and an end line with the cause"
    )
    func stoppedPastCutOff() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let limits = ViewerLimits(viewerBufferBytes: 256 * 1024, stalledViewerSeconds: 0.5)
        let inspector = try NotifyInspector.start(
            center: center, others: .none, directory: temporary.socketDirectory, ringCapacity: 1 << 16, limits: limits,
            accept: { $0.acceptConnection() })
        defer { inspector.stop() }
        // The viewer is `cat`, reading the socket and writing what it gets to a file.
        let output = temporary.socketDirectory.path + "/viewer.jsonl"
        try #require(FileManager.default.createFile(atPath: output, contents: Data()))
        let socket = try UnixSocket.connect(to: inspector.socketPath)
        let written = open(output, O_WRONLY | O_CLOEXEC)
        try #require(written >= 0)
        let viewer = try ChildProcess.start(["/bin/cat"], input: socket.descriptor, output: written)
        close(written)
        socket.close()
        defer {
            if viewer.termination() == nil {
                kill(viewer.pid, SIGCONT)
                viewer.terminate()
            }
        }
        #expect(eventually { inspector.viewerCount == 1 })
        let posters = Posters(center, ping, threads: 1, pause: 200)
        defer { posters.stop() }
        kill(viewer.pid, SIGSTOP)
        // Stopped well past the cut-off and the time a cut-off viewer has to take its last lines.
        #expect(eventually(seconds: 30) { inspector.viewerHasMissed })
        #expect(eventually(seconds: 30) { inspector.viewerCount == 0 })
        usleep(300_000)  // the app goes on posting while the viewer stays stopped
        kill(viewer.pid, SIGCONT)
        // The app closes the connection once the viewer has read its last lines: `cat` then ends.
        #expect(eventually(seconds: 30) { viewer.termination() != nil })
        let (stream, _) = try TraceReader.open(file: output).readToEnd(seconds: 30)
        let account = StreamAccount(stream)
        let end = try #require(account.end, "the stream ends with an end line, not a bare close")
        #expect(end.reason == .disconnected)
        #expect((end.behindNanoseconds ?? 0) >= 500_000_000)
        #expect((end.queuedBytes ?? 0) > 0)
        let finalGaps = account.viewerBehindGaps.filter { $0.timestamp == end.timestamp }
        #expect((end.missedEvents ?? 0) > 0)
        #expect(finalGaps.reduce(0) { $0 + $1.count } == end.missedEvents)
        #expect(account.decreasingSeq == 0)
        if account.lostInRing == 0 { #expect(account.unaccountedSeq == []) }
    }
}
