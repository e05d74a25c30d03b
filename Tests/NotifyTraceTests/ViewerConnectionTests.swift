import Foundation
import NotifyWire
@testable import NotifySystem
@testable import NotifyTraceApp
import Testing

/// A viewer's queue on its own, over a socket pair: what it sends, misses and reports.
@Suite("Viewer connection queue", .timeLimit(.minutes(10)))
struct ViewerConnectionTests {
    private func pair() throws -> (app: UnixSocket, viewer: UnixSocket) {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        // The smallest send buffer, so that the queue fills after a few lines.
        var size: Int32 = 4096
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        return (UnixSocket(descriptor: fds[0]), UnixSocket(descriptor: fds[1]))
    }

    private func checkpointLine(_ seq: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        TraceEncoder.encode(
            .checkpoint(
                TraceCheckpoint(
                    seq: seq, timestamp: seq, thread: 1,
                    label: String(repeating: "x", count: 100), callsite: 1)),
            into: &bytes)
        return bytes
    }

    private func readAll(_ socket: UnixSocket, into decoder: inout TraceDecoder) -> [TraceEvent] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while let count = buffer.withUnsafeMutableBytes({ socket.read(into: $0, timeoutMilliseconds: 50) }), count > 0 {
            bytes += buffer.prefix(count)
        }
        decoder.feed(bytes[...])
        var events: [TraceEvent] = []
        while let event = try? decoder.next() { events.append(event) }
        return events
    }

    @Test("a gap that does not fit takes no number; when it fits it carries the last missed seq, before any later line")
    func gapNumbering() throws {
        let (app, viewer) = try pair()
        let connection = ViewerConnection(socket: app, eventLimit: 2_000)
        var seq: UInt64 = 0
        // Far more than the queue and the socket hold.
        for _ in 0..<200 {
            seq += 1
            connection.enqueue(checkpointLine(seq)[...], as: .event(seq: seq, events: 1), now: seq)
            connection.flush()
            connection.reportMissed(now: seq)
        }
        #expect(connection.hasMissed)
        // A thread line (a definition with a number) may not overtake the missed events.
        var thread: [UInt8] = []
        seq += 1
        TraceEncoder.encode(
            .thread(TraceThread(seq: seq, timestamp: seq, id: 9, systemID: 9, name: "t", isMain: false)),
            into: &thread)
        connection.enqueue(thread[...], as: .required(seq: seq, events: 0), now: seq)
        for _ in 0..<20 {
            seq += 1
            connection.enqueue(checkpointLine(seq)[...], as: .event(seq: seq, events: 1), now: seq)
        }
        connection.finish(with: TraceEnd(seq: seq + 1, timestamp: seq + 1, reason: .processExit))
        let account = StreamAccount(readToEnd(connection, viewer))
        #expect(account.end?.seq == seq + 1)
        #expect(UInt64(account.events) + account.lost == seq - 1)  // every checkpoint
        #expect(account.decreasingSeq == 0)
        #expect(account.unaccountedSeq == [])
    }

    /// What the viewer receives, flushing the connection, up to its end line.
    private func readToEnd(_ connection: ViewerConnection, _ viewer: UnixSocket) -> [TraceEvent] {
        var events: [TraceEvent] = []
        var decoder = TraceDecoder()
        for _ in 0..<100 where events.last?.kind != .end {
            connection.flush()
            events += readAll(viewer, into: &decoder)
        }
        return events
    }

    /// Reads what the cut-off viewer receives up to its end line, and checks that each of `total`
    /// events arrived or is among the `lost` the final gap reports, with no number unaccounted.
    private func expectEveryEventAccounted(
        _ connection: ViewerConnection, _ viewer: UnixSocket, lost: UInt64, of total: UInt64
    ) {
        expectEveryEventAccounted(readToEnd(connection, viewer), lost: lost, of: total)
    }

    private func expectEveryEventAccounted(_ received: [TraceEvent], lost: UInt64, of total: UInt64) {
        let account = StreamAccount(received)
        #expect(account.end?.reason == .disconnected)
        #expect(account.lost == lost)
        #expect(UInt64(account.events) + account.lost == total)
        #expect(account.unaccountedSeq == [])
    }

    @Test("cutting a viewer off gives up the lines not yet started and counts their events in one gap")
    func cutOffCountsUnsentEvents() throws {
        let (app, viewer) = try pair()
        let connection = ViewerConnection(socket: app, eventLimit: 1 << 20)
        for seq in UInt64(1)...300 {
            connection.enqueue(checkpointLine(seq)[...], as: .event(seq: seq, events: 1), now: seq)
        }
        connection.flush()
        #expect(connection.queuedByteCount > 0)
        let lost = connection.cutOff(with: TraceEnd(seq: 301, timestamp: 301, reason: .disconnected))
        #expect(lost > 0)
        expectEveryEventAccounted(connection, viewer, lost: lost, of: 300)
    }

    @Test(
        "cutting a viewer off keeps the numbered lines without events it gave up (ticks), each after a gap for what came before it"
    )
    func cutOffKeepsTicks() throws {
        let (app, viewer) = try pair()
        let connection = ViewerConnection(socket: app, eventLimit: 8_000)
        var seq: UInt64 = 0
        var events: UInt64 = 0
        // Events beyond what the queue holds, each run followed by a tick (a line that is never
        // missed), then missed events the cut-off finds unreported.
        for run in 0..<4 {
            for _ in 0..<(run == 3 ? 50 : 100) {
                seq += 1
                events += 1
                connection.enqueue(checkpointLine(seq)[...], as: .event(seq: seq, events: 1), now: seq)
            }
            guard run < 3 else { break }
            seq += 1
            var tick: [UInt8] = []
            TraceEncoder.encode(.tick(TraceTick(seq: seq, timestamp: seq, viewers: 1)), into: &tick)
            connection.enqueue(tick[...], as: .required(seq: seq, events: 0), now: seq)
        }
        #expect(connection.hasMissed)
        connection.finish(with: TraceEnd(seq: seq + 1, timestamp: seq + 1, reason: .disconnected))
        let lost = connection.cutOff(with: TraceEnd(seq: seq + 1, timestamp: seq + 1, reason: .disconnected))
        #expect(lost > 0)
        let received = readToEnd(connection, viewer)
        #expect(received.count { if case .tick = $0 { true } else { false } } == 3)
        #expect(received.count { if case .end = $0 { true } else { false } } == 1)
        expectEveryEventAccounted(received, lost: lost, of: events)
    }

    @Test("a chunk the socket takes in part is written straight, its rest queued: every event arrives or is counted")
    func chunkWrittenInPart() throws {
        let (app, viewer) = try pair()
        let connection = ViewerConnection(socket: app, eventLimit: 1 << 20)
        var seq: UInt64 = 0
        // Two chunks: the first meets an empty queue and goes straight to the socket as far as it
        // will take it, the second lands behind what waits.
        for _ in 0..<2 {
            var bytes: [UInt8] = []
            var ends: [Int] = []
            var kinds: [ViewerConnection.Line] = []
            for _ in 0..<150 {
                seq += 1
                bytes += checkpointLine(seq)
                ends.append(bytes.count)
                kinds.append(.event(seq: seq, events: 1))
            }
            connection.enqueue(chunk: bytes[...], ends: ends, kinds: kinds, now: seq)
        }
        #expect(connection.queuedByteCount > 0, "the socket did not take it all")
        #expect(connection.queuedByteCount < 300 * checkpointLine(1).count, "the socket took a part at once")
        let lost = connection.cutOff(with: TraceEnd(seq: 301, timestamp: 301, reason: .disconnected))
        expectEveryEventAccounted(connection, viewer, lost: lost, of: 300)
    }
}
