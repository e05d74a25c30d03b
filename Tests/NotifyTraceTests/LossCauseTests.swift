import Foundation
import NotifyKit
import NotifyTestSupport
import NotifyWire
@testable import NotifySystem
@testable import NotifyTraceApp
@testable import NotifyTraceViewer
import Testing

private let ping = Notification.Name("loss.cause.ping")

/// Holds the exporter thread where it accepts connections, once per pass: while held, events pile
/// up in the ring as they do when the exporter falls behind the app.
private final class ExporterHold: @unchecked Sendable {  // `state` is locked
    private let state = LockedValue((held: false, waiting: false, entries: 0))

    func accept(_ listener: UnixSocket) -> UnixSocket.AcceptResult {
        if state.withLock({ $0.held }) {
            state.withLock {
                $0.waiting = true
                $0.entries += 1
            }
            // Held until released, or until the wait gives up and the test's counts fail.
            _ = eventually { !state.withLock { $0.held } }
            state.withLock { $0.waiting = false }
        }
        return listener.acceptConnection()
    }

    /// Returns once the exporter thread is held, between two passes.
    func engage() -> Bool {
        let before = state.withLock {
            $0.held = true
            return $0.entries
        }
        return eventually { state.withLock { $0.entries > before } }
    }

    /// Lets the exporter go on; returns once it has.
    func release() -> Bool {
        state.withLock { $0.held = false }
        return eventually { !state.withLock { $0.waiting } }
    }

    /// Returns once the exporter has made one whole pass (a drain of the ring included) after now,
    /// and is held again.
    func awaitPass() -> Bool {
        engage() && release() && engage()
    }
}

/// Every lost event is labelled with its cause: `buffer-full` when the app's ring overflowed (the
/// exporter or the app was too busy), `viewer-behind` only when this viewer's socket stopped
/// taking lines.
@Suite("Loss causes", .serialized, .timeLimit(.minutes(10)))
struct LossCauseTests {
    private func start(
        _ center: NotifyCenter, _ directory: TemporaryDirectory, ringCapacity: Int, hold: ExporterHold
    )
        throws -> NotifyInspector
    {
        try NotifyInspector.start(
            center: center, others: .none, directory: directory.socketDirectory, ringCapacity: ringCapacity,
            limits: ViewerLimits(viewerBufferBytes: 4096, stalledViewerSeconds: 60), accept: hold.accept)
    }

    @Test(
        "a burst the exporter drains at once, larger than a viewer's queue but not than its socket, reaches the viewer whole"
    )
    func burstLargerThanQueueReachesViewer() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let hold = ExporterHold()
        let inspector = try start(center, temporary, ringCapacity: 1 << 16, hold: hold)
        let viewer = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 1 })
        #expect(hold.awaitPass())
        // About 30 kB of lines: ten times the viewer's queue, a fraction of what its socket takes.
        let posts = 150
        for _ in 0..<posts { center.post(name: ping) }
        #expect(hold.release())
        #expect(eventually { viewer.postCount == posts })
        inspector.stop()
        let account = StreamAccount(viewer.finish())
        #expect(account.viewerBehindGaps == [])
        #expect(account.lost == 0)
        #expect(account.posts == posts)
        #expect(account.unaccountedSeq == [])
    }

    @Test("events the ring drops while a viewer is behind are counted as buffer-full, not as that viewer's loss")
    func ringLossWhileViewerBehindKeepsItsCause() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let hold = ExporterHold()
        let ringCapacity = 256
        let inspector = try start(center, temporary, ringCapacity: ringCapacity, hold: hold)
        let viewer = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath), paused: true)
        #expect(eventually { inspector.viewerCount == 1 })
        // Far more than the paused viewer's socket and queue hold: it is behind.
        var produced = 0
        for _ in 0..<200 {
            for _ in 0..<ringCapacity / 2 { center.post(name: ping) }
            produced += ringCapacity / 2
            #expect(hold.awaitPass())
            #expect(hold.release())
        }
        #expect(hold.awaitPass())
        // The exporter is held with an empty ring: of these, all but the ring's capacity are dropped.
        let burst = 1_000
        for _ in 0..<burst { center.post(name: ping) }
        produced += burst
        #expect(hold.release())
        #expect(hold.awaitPass())
        #expect(hold.release())
        viewer.paused = false
        inspector.stop()
        let stream = viewer.finish()
        let account = StreamAccount(stream)
        // Clock lines are numbered like events and never lost, but stand for none: the account skips them.
        #expect(account.lostInRing == UInt64(burst - ringCapacity))
        #expect(account.viewerBehindGaps.count >= 1)
        #expect(UInt64(account.events) + account.lost == UInt64(produced))
        #expect(account.unaccountedSeq == [])
        #expect(account.decreasingSeq == 0)
    }
}
