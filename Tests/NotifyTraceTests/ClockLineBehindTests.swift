import Foundation
import NotifyKit
import NotifyTestSupport
import NotifyTraceApp
import NotifyTraceViewer
import NotifyWire
import Testing

private let ping = Notification.Name("clock.behind.ping")

/// A clock line is numbered like an event, so every viewer must receive it, even one that is
/// behind when it is sent: otherwise that viewer sees a hole in `seq` and counts a loss.
@Suite("Clock lines and viewers behind", .serialized, .timeLimit(.minutes(10)))
struct ClockLineBehindTests {
    @Test("a clock line sent while one viewer still has lines queued reaches it too: no hole, no loss")
    func clockLineReachesViewerBehind() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        let reading = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        let behind = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 2 })
        behind.paused = true
        // More than a socket holds, far less than a viewer's queue: `behind` keeps lines queued.
        for _ in 0..<5_000 { center.post(name: ping) }
        #expect(eventually { reading.postCount == 5_000 })
        usleep(2_500_000)  // a quiet window in which clock lines go out, not a wait for a result
        behind.paused = false
        #expect(eventually { behind.postCount == 5_000 })
        inspector.stop()
        let stream = behind.finish()
        let account = StreamAccount(stream)
        #expect(stream.contains { $0.kind == .tick })
        #expect(account.lost == 0)
        #expect(account.unaccountedSeq.isEmpty)
        #expect(account.decreasingSeq == 0)
    }
}
