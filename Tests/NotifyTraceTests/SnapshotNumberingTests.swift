import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
@testable import NotifyTraceApp
@testable import NotifyTraceViewer
import Testing

private let tick = Notification.Name("numbering.tick")

/// A late viewer's snapshot describes state the stream already numbered: it must not take numbers
/// that viewers already attached would then see as holes (and count as lost).
@Suite("Snapshot numbering", .serialized, .timeLimit(.minutes(10)))
struct SnapshotNumberingTests {
    @Test("viewers attached while others attach see no hole in seq and no loss; each late stream still only grows")
    func lateViewersTakeNoNumbers() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        let tokens = (0..<6).map { index in
            center.addObserver(forName: Notification.Name("numbering.\(index)"), object: nil, queue: nil) { _ in }
        }
        tokens[2].cancel()
        let first = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        // Posts count for a viewer once the exporter has attached it.
        #expect(eventually { inspector.viewerCount == 1 })
        var late: [BackgroundViewer] = []
        for round in 1...4 {
            for _ in 0..<50 { center.post(name: tick) }
            #expect(eventually { first.postCount == round * 50 })
            late.append(BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath)))
            #expect(eventually { inspector.viewerCount == round + 1 })
        }
        for _ in 0..<50 { center.post(name: tick) }
        #expect(eventually { first.postCount == 250 })
        inspector.stop()
        let account = StreamAccount(first.finish())
        #expect(account.posts == 250)
        #expect(account.unaccountedSeq.isEmpty)
        #expect(account.lost == 0)
        for viewer in late {
            let stream = viewer.finish()
            let lateAccount = StreamAccount(stream)
            #expect(lateAccount.decreasingSeq == 0)
            #expect(lateAccount.lost == 0)
            #expect(stream.compactMap(\.registration).filter(\.preexisting).count == 5)
        }
        withExtendedLifetime(tokens) {}
    }
}
