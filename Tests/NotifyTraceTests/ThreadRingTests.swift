import Dispatch
import Foundation
import NotifyKit
import NotifyTestSupport
import NotifyWire
@testable import NotifySystem
@testable import NotifyTraceApp
@testable import NotifyTraceViewer
import Testing

private let beat = Notification.Name("thread-rings.beat")

/// What the per-thread rings of the app side promise a viewer: every event dropped by a full ring
/// arrives as a `buffer-full` gap of exactly that size, and threads posting at once lose nothing
/// that is not counted.
@Suite("Thread rings", .serialized, .timeLimit(.minutes(10)))
struct ThreadRingTests {
    private func start(_ center: NotifyCenter, _ directory: TemporaryDirectory, ringCapacity: Int)
        throws -> NotifyInspector
    {
        try NotifyInspector.start(
            center: center, others: .none, directory: directory.socketDirectory, ringCapacity: ringCapacity,
            limits: ViewerLimits(viewerBufferBytes: 64 << 20, stalledViewerSeconds: 60),
            accept: { $0.acceptConnection() })
    }

    @Test("a thread that fills its ring: the viewer gets a buffer-full gap of exactly the events dropped")
    func fullRingReachesViewerAsGap() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: beat, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let inspector = try start(center, temporary, ringCapacity: 32)
        let viewer = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 1 })
        // Far more than 32 events between two drains of the exporter.
        let posts = 20_000
        for _ in 0..<posts { center.post(name: beat) }
        inspector.stop()
        let account = StreamAccount(viewer.finish())
        let produced = UInt64(posts) * 2  // posts and deliveries
        #expect(account.end?.reason == .inspectorStopped)
        #expect(account.lostInRing > 0)
        #expect(account.viewerBehindGaps.isEmpty)
        #expect(UInt64(account.posts + account.deliveries) + account.lostInRing == produced)
        #expect(account.decreasingSeq == 0)
    }

    @Test("eight threads posting with a viewer attached: every post and delivery arrives, each delivery after its post")
    func eightThreadsWithViewer() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: beat, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let inspector = try start(center, temporary, ringCapacity: 1 << 14)
        let viewer = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 1 })
        let threads = 8
        let postsPerThread = 500
        let group = DispatchGroup()
        for index in 0..<threads {
            let thread = Thread {
                for _ in 0..<postsPerThread { center.post(name: beat) }
                group.leave()
            }
            thread.name = "tests.ring-poster-\(index)"
            group.enter()
            thread.start()
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        // Rings this size drop nothing here; the viewer gets every post before the stream ends.
        #expect(eventually(seconds: 120) { viewer.postCount == threads * postsPerThread })
        inspector.stop()
        let stream = viewer.finish()
        let account = StreamAccount(stream)
        let produced = UInt64(threads * postsPerThread) * 2  // posts and deliveries
        #expect(UInt64(account.posts + account.deliveries) == produced)
        #expect(account.lost == 0)
        #expect(account.decreasingSeq == 0)
        // Each delivery follows its post.
        var posted = Set<UInt64>()
        var early = 0
        for event in stream {
            if case .posted(let post) = event { posted.insert(post.postID) }
            if case .delivered(let delivery) = event, !posted.contains(delivery.postID) { early += 1 }
        }
        #expect(early == 0)
    }
}
