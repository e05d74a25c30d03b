import Foundation
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import NotifyModel
import NotifySession
import NotifyTraceViewer
import NotifyTUI
import Testing

/// The live path hands events from the reader thread to the run loop in whole batches; a long
/// stream must still arrive complete, in order, with the same tail as folding one by one.
struct LiveFeedTests {
    /// A stream of many batches: definitions (not kept in the tail) mixed with posts.
    static func stream(posts: Int) -> [TraceEvent] {
        var events = Fixture.events()
        var seq = events.compactMap(\.seq).max() ?? 0
        let start = events.last?.timestamp ?? 0
        for index in 0..<posts {
            seq += 1
            if index % 7 == 0 { events.append(.type(TraceType(id: UInt64(1_000 + index), name: "Screen\(index)"))) }
            events.append(
                .posted(
                    TracePost(
                        seq: seq, timestamp: start + UInt64(index) * 1_000, thread: 1, postID: UInt64(10_000 + index),
                        name: "cartDidChange", object: nil, hasUserInfo: false, matched: 0, depth: 1, parentPostID: 0,
                        callsite: 1)))
        }
        return events
    }

    @Test("a live stream of many batches is folded completely, and the tail holds its newest events")
    func manyBatches() throws {
        let events = Self.stream(posts: 5_000)
        let path = temporaryPath("livefeed", suffix: ".ndjson")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let session = DashboardSession(source: .live(LiveFeed(reader: try TraceReader.open(file: path))))
        defer { session.stopFeed() }
        var now: UInt64 = 1_000_000_000
        for _ in 0..<2_000 where !session.isEnded {
            now += 10_000_000
            session.poll(now: now)
            usleep(5_000)
        }
        #expect(session.isEnded)
        #expect(session.model.totals.events == UInt64(events.count))

        var expected = EventTail()
        for event in events { expected.append(event) }
        #expect(session.tail.events == expected.events)
        #expect(session.tail.dropped == expected.dropped)
        #expect(session.tail.events.last == events.last)
    }
}
