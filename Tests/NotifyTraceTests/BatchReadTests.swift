import Foundation
import NotifyWire
import NotifyTraceViewer
import Testing

/// Reading in batches gives what reading one event at a time gives: the same events, gaps and
/// end, with the end reported only once every event before it was handed over.
@Suite("Batched reads")
struct BatchReadTests {
    /// Reads `path` in batches of at most `limit`, checking each batch's count and limit.
    static func readBatched(_ path: String, limit: Int) throws -> (events: [TraceEvent], end: TraceStreamEnd) {
        let reader = try TraceReader.open(file: path)
        var events: [TraceEvent] = []
        while true {
            let before = events.count
            switch reader.next(appendingTo: &events, limit: limit) {
            case .events(let count):
                #expect(count >= 1 && count <= limit)
                #expect(events.count == before + count)
            case .idle:
                #expect(events.count == before)
            case .ended(let end):
                #expect(events.count == before)
                return (events, end)
            }
        }
    }

    /// A stream with a skipped malformed line, a hole no gap line reports and no end line.
    static let damaged: [String] = {
        let events = [TraceInputTests.header] + [1, 2, 3, 9, 10].map(TraceInputTests.post)
        var lines = TraceInputTests.lines(events)
        lines.insert("not json", at: 2)
        return lines
    }()

    @Test(
        "batches of any size give the events, the synthesized gap and the end of one-by-one reading",
        arguments: [1, 2, 3, 7, 1_024])
    func sameAsOneByOne(limit: Int) throws {
        let path = TraceInputTests.write(Array((Self.damaged.joined(separator: "\n") + "\n").utf8), "batched")
        defer { unlink(path) }
        let expected = TraceInputTests.readAll(try TraceReader.open(file: path))
        let batched = try Self.readBatched(path, limit: limit)
        #expect(batched.events == expected.events)
        #expect(batched.end == expected.end)
        #expect(batched.end == .endOfFile)
        #expect(batched.events.last?.gap?.count == 5, "the hole arrives as the last event, before the end")
    }

    @Test("a stream's end line and the end come after every event, however the batch is cut")
    func endAfterEvents() throws {
        let events =
            [TraceInputTests.header] + (1...20).map(TraceInputTests.post)
            + [.end(TraceEnd(seq: 21, timestamp: 2_000, reason: .processExit))]
        let path = TraceInputTests.write(
            Array((TraceInputTests.lines(events).joined(separator: "\n") + "\n").utf8), "batched-end")
        defer { unlink(path) }
        for limit in [1, 5, 21, 22, 100] {
            let (read, end) = try Self.readBatched(path, limit: limit)
            #expect(read == events, "limit \(limit)")
            #expect(end == .processExited, "limit \(limit)")
        }
    }

    @Test("a first line that is not a header fails the batch read as it fails one-by-one reading")
    func notATrace() throws {
        let path = TraceInputTests.write(
            Array((TraceInputTests.lines([TraceInputTests.post(1)]).joined() + "\n").utf8), "batched-no-header")
        defer { unlink(path) }
        let reader = TraceReader(source: .file(open(path, O_RDONLY)), origin: path)
        var events: [TraceEvent] = []
        guard case .ended(.failed(let message)) = reader.next(appendingTo: &events, limit: 10) else {
            Issue.record("expected a failure")
            return
        }
        #expect(events.isEmpty)
        #expect(message.contains("not a notifytop trace") && message.contains("\"post\" line"), "\(message)")
    }

    @Test("undecodable lines after an event end the batch, so the event is handed over, and a run of them returns idle")
    func skippedLinesHandOver() throws {
        let header = TraceInputTests.lines([TraceInputTests.header]).joined() + "\n"
        let garbage = String(repeating: "not a trace line\n", count: 1_000)
        let path = TraceInputTests.write(Array((header + garbage).utf8), "batched-garbage")
        defer { unlink(path) }
        let reader = try TraceReader.open(file: path)
        var events: [TraceEvent] = []
        #expect(reader.next(appendingTo: &events, limit: 1_024) == .events(1))
        #expect(reader.malformedLines == 1, "the header waits for no more than one skipped line")
        #expect(reader.next(appendingTo: &events, limit: 1_024) == .idle)
        #expect(reader.malformedLines == 1 + TraceReader.skipsPerCall)
        #expect(try Self.readBatched(path, limit: 1_024).events.count == 1)
    }
}
