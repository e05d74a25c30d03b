import Foundation
import NotifySystem
import NotifyWire
@testable import NotifyTraceViewer
import Testing

/// A live stream (a socket, or ssh's pipe) that sends an over-long line: the reader holds a bounded
/// buffer, skips and counts the line, and gives a stream with no line end at all up after a
/// bounded number of bytes, however many the sender has.
@Suite("Socket line bound", .serialized, .timeLimit(.minutes(10)))
struct SocketLineBoundTests {
    /// A reader on one end of a socket pair and a thread writing `chunks()` into the other end
    /// until they run out or the reader has gone; returns the bytes written.
    private static func stream(
        _ chunks: @escaping @Sendable () -> [UInt8]?, read: (TraceReader) throws -> Void
    ) throws -> Int {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let writer = fds[0]
        let written = LockedValue(0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { done.signal() }
            while let chunk = chunks() {
                var sent = 0
                while sent < chunk.count {
                    let count = chunk.withUnsafeBytes {
                        send(writer, $0.baseAddress! + sent, chunk.count - sent, Int32(MSG_NOSIGNAL))
                    }
                    guard count > 0 else { return }
                    sent += count
                    written.withLock { $0 += count }
                }
            }
            shutdown(writer, Int32(SHUT_WR))
        }
        let reader = TraceReader(source: .socket(UnixSocket(descriptor: fds[1])), origin: "test socket")
        try read(reader)
        close(fds[1])
        #expect(done.wait(timeout: .now() + 60) == .success, "the writer stops once the reader has gone")
        close(writer)
        return written.withLock { $0 }
    }

    private static func bytes(_ events: [TraceEvent]) -> [UInt8] {
        Array((TraceInputTests.lines(events).joined(separator: "\n") + "\n").utf8)
    }

    @Test("a line over the decoder's limit on a socket is skipped and counted, and the posts after it are read")
    func overlongLineIsSkipped() throws {
        let long = 2 * TraceDecoder.defaultMaximumLineLength
        let parts = LockedValue([
            Self.bytes([TraceInputTests.header] + (1...2).map(TraceInputTests.post)),
            Array("{\"t\":\"post\",\"name\":\"".utf8) + [UInt8](repeating: 0x41, count: long) + [10],
            Self.bytes(
                (3...5).map(TraceInputTests.post) + [.end(TraceEnd(seq: 6, timestamp: 2_000, reason: .processExit))]),
        ])
        let next: @Sendable () -> [UInt8]? = { parts.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
        _ = try Self.stream(next) { reader in
            let (events, end) = TraceInputTests.readAll(reader)
            #expect(end == .processExited)
            #expect(events.filter { $0.postName == "tick" }.count == 5, "every post around the long line")
            #expect(events.compactMap(\.gap).isEmpty, "no event was lost")
            #expect(reader.malformedLines == 1)
            #expect(reader.skippedBytes >= long)
        }
    }

    @Test("200 MB with no line end on a socket end the stream after a bounded number of bytes, never all of them")
    func endlessLineIsGivenUp() throws {
        let total = 200 << 20
        let chunk = [UInt8](repeating: 0x41, count: 1 << 20)
        let sent = LockedValue(0)
        let header = Self.bytes([TraceInputTests.header])
        let next: @Sendable () -> [UInt8]? = {
            sent.withLock { count -> [UInt8]? in
                guard count < total else { return nil }
                defer { count += chunk.count }
                return count == 0 ? header + chunk : chunk
            }
        }
        let written = try Self.stream(next) { reader in
            var events: [TraceEvent] = []
            var end: TraceStreamEnd?
            while end == nil {
                switch reader.next(appendingTo: &events, limit: 64, timeoutMilliseconds: 1_000) {
                case .ended(let how): end = how
                case .events, .idle: continue
                }
            }
            guard case .failed(let message) = end else {
                Issue.record("the stream ends as failed, not \(String(describing: end))")
                return
            }
            #expect(message.contains("no line end in \(TraceReader.maximumBytesWithoutNewline) bytes"))
            #expect(reader.byteCount <= TraceReader.maximumBytesWithoutNewline + 1 << 20, "stops reading at the bound")
            #expect(reader.skippedBytes > 0, "the over-long line's bytes are counted")
        }
        #expect(written < total, "the sender's 200 MB were never all taken")
    }
}
