import Foundation
import NotifyModel
import NotifySession
import NotifyTestSupport
import NotifyTraceViewer
import NotifyWire
import Testing

/// The live feed's inbox is bounded: what a stream sends faster than the run loop takes it is
/// dropped, counted and handed on as one gap line saying why, which the model counts as lost.
@Suite("Live feed bound", .timeLimit(.minutes(10)))
struct LiveFeedBoundTests {
    /// A recording of `posts` posts after the fixture's header and definitions.
    private static func recording(posts: Int) throws -> (path: String, events: [TraceEvent]) {
        let events = LiveFeedTests.stream(posts: posts)
        let path = temporaryPath("livefeed-bound", suffix: ".ndjson")
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, events)
    }

    /// Drains `feed` until its stream ends (within a deadline), folding what it hands over.
    private static func drainToEnd(_ feed: LiveFeed) -> (folded: [TraceEvent], ended: Bool) {
        var folded: [TraceEvent] = []
        var ended = false
        let deadline = Date(timeIntervalSinceNow: 30)
        while !ended, Date() < deadline {
            let (end, _) = feed.drain { batches in
                for batch in batches { folded += batch }
            }
            ended = end != nil
            if !ended { usleep(5_000) }
        }
        return (folded, ended)
    }

    @Test("a stream faster than the run loop loses what does not fit, as one counted gap saying why")
    func overflowIsCountedWithItsCause() throws {
        let (path, events) = try Self.recording(posts: 5_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Every batch the reader makes of a file is over the bound: all posts are dropped.
        let feed = LiveFeed(reader: try TraceReader.open(file: path), maximumQueuedEvents: 100)
        defer { feed.stop() }
        let (folded, ended) = Self.drainToEnd(feed)
        #expect(ended)
        let gaps = folded.compactMap { event -> TraceGap? in
            if case .gap(let gap) = event { gap } else { nil }
        }
        #expect(!gaps.isEmpty && gaps.allSatisfy { $0.reason == .inboxFull })
        let sent = events.filter { $0.seq != nil }.count
        let received = folded.filter {
            if case .gap = $0 { return false }
            return $0.seq != nil
        }.count
        #expect(received + Int(gaps.reduce(0) { $0 + $1.count }) == sent, "every event is received or counted")
        #expect(folded.contains { if case .header = $0 { true } else { false } }, "the header is kept")
        #expect(
            folded.filter { $0.seq == nil }.count == events.filter { $0.seq == nil }.count,
            "definitions are kept")

        var model = InspectorState()
        for event in folded { model.apply(event) }
        #expect(model.eventsLost == UInt64(sent - received))
        #expect(model.overview.eventsLost == model.eventsLost, "the header shows the loss")
    }

    @Test("a stream the run loop keeps up with loses nothing and has no gap")
    func withinBoundNothingIsLost() throws {
        let (path, events) = try Self.recording(posts: 5_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let feed = LiveFeed(reader: try TraceReader.open(file: path), maximumQueuedEvents: 1 << 20)
        defer { feed.stop() }
        let (folded, ended) = Self.drainToEnd(feed)
        #expect(ended)
        #expect(folded == events)
    }
}
