import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
import NotifyTraceApp
import NotifyTraceViewer
import Testing

@Suite("Clock lines from a quiet exporter", .serialized, .timeLimit(.minutes(10)))
struct ClockLineExportTests {
    @Test("a quiet stream carries tick lines, numbered after the events and stamped later than them")
    func quietStreamTicks() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter(label: "quiet")
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        #expect(reader.header == nil || reader.header?.version == .current)
        let events = reader.read(until: { $0.kind == .tick }, seconds: 10)
        #expect(reader.header?.version == TraceFormatVersion.current)
        let tick = try #require(events.last)
        #expect(tick.kind == .tick)
        let earlier = events.dropLast().compactMap(\.timestamp)
        #expect(earlier.allSatisfy { $0 <= tick.timestamp! })
        let seqs = events.compactMap(\.seq)
        #expect(seqs == seqs.sorted())
        let second = reader.read(until: { $0.kind == .tick }, seconds: 10)
        #expect(second.last?.kind == .tick)
        #expect((second.last?.timestamp ?? 0) - tick.timestamp! >= 1_000_000_000)
    }
}
