import Foundation
import Testing
import NotifyWire

/// Pins the format: each kind's line, byte for byte, as the wire-format article shows it.
@Suite struct GoldenLineTests {
    @Test("each kind encodes to exactly its golden line", arguments: TraceLineKind.allCases)
    func encodesGoldenLine(kind: TraceLineKind) {
        #expect(TraceEncoder.line(for: TraceSamples.event(kind)) == TraceSamples.line(kind))
        #expect(TraceSamples.event(kind).encoded == Array((TraceSamples.line(kind) + "\n").utf8))
    }

    @Test("each golden line decodes to its event", arguments: TraceLineKind.allCases)
    func decodesGoldenLine(kind: TraceLineKind) {
        #expect(decodeOne(TraceSamples.line(kind)) == .event(TraceSamples.event(kind)))
    }

    @Test("the wire-format article shows every golden line verbatim", arguments: TraceLineKind.allCases)
    func articleShowsGoldenLine(kind: TraceLineKind) throws {
        let article = try Self.article()
        #expect(
            article.split(separator: "\n").contains { $0 == TraceSamples.line(kind) },
            "WireFormat.md lacks the \(kind.rawValue) line: \(TraceSamples.line(kind))")
    }

    @Test("every JSON line in the wire-format article decodes and re-encodes to itself")
    func articleLinesRoundTrip() throws {
        let lines = try Self.article().split(separator: "\n").filter { $0.hasPrefix(#"{"k":"#) }
        #expect(lines.count >= 14 + 15)
        for line in lines {
            guard case .event(let event) = decodeOne(String(line)) else {
                Issue.record("does not decode: \(line)")
                continue
            }
            #expect(event.kind != nil, "unknown kind: \(line)")
            #expect(TraceEncoder.line(for: event) == String(line))
        }
    }

    @Test("the article's example session is a valid stream: a header, increasing seq, an end")
    func articleSessionIsCoherent() throws {
        let article = try Self.article()
        let session = try #require(
            article.components(separatedBy: "```json\n").last?
                .components(separatedBy: "```").first)
        let outcomes = decodeAll(session)
        let events = outcomes.compactMap { if case .event(let event) = $0 { event } else { nil } }
        #expect(events.count == outcomes.count)
        #expect(events.first?.kind == .header)
        #expect(events.last?.kind == .end)
        let seqs = events.compactMap(\.seq)
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
        #expect(events.count >= 15)
    }

    static func article() throws -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/NotifyWire/Documentation.docc/WireFormat.md")
        return try String(contentsOf: url, encoding: .utf8)
    }
}
