import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
import NotifyTraceApp
import NotifyTraceViewer
import Testing

@Suite("Viewer counts from the exporter", .serialized, .timeLimit(.minutes(10)))
struct ViewerCountExportTests {
    static func isTick(viewers: UInt64) -> (TraceEvent) -> Bool {
        { event in
            if case .tick(let tick) = event { return tick.viewers == viewers }
            return false
        }
    }

    @Test("every viewer is told how many viewers there are, when one joins and when one leaves")
    func countFollowsViewers() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter(label: "viewers")
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let first = try TraceReader.connect(socketPath: inspector.socketPath)
        #expect(first.read(until: Self.isTick(viewers: 1), seconds: 30).last.map(Self.isTick(viewers: 1)) == true)
        do {
            let second = try TraceReader.connect(socketPath: inspector.socketPath)
            let joined = second.read(until: Self.isTick(viewers: 2), seconds: 30)
            #expect(second.header != nil)
            #expect(
                joined.last.map(Self.isTick(viewers: 2)) == true, "the new viewer learns the count after its snapshot")
            #expect(first.read(until: Self.isTick(viewers: 2), seconds: 30).last.map(Self.isTick(viewers: 2)) == true)
            let seqs = joined.compactMap(\.seq)
            #expect(seqs == seqs.sorted())
        }
        #expect(
            first.read(until: Self.isTick(viewers: 1), seconds: 30).last.map(Self.isTick(viewers: 1)) == true,
            "the one left is told when the other leaves")
    }
}
