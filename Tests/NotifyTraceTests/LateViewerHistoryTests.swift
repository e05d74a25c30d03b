import Foundation
import NotifyKit
import NotifySystem
import NotifyTestSupport
@testable import NotifyTraceApp
@testable import NotifyTraceViewer
import NotifyWire
import Testing

private let ping = Notification.Name("history.ping")
private let nobody = Notification.Name("history.nobody")

/// What one stream says a name's totals are: its history lines plus its events.
private struct StreamTotals {
    var historyPosts: UInt64 = 0
    var historyDeliveries: UInt64 = 0
    var historyUnheard: UInt64 = 0
    var eventPosts: UInt64 = 0
    var eventDeliveries: UInt64 = 0
    /// History posts by thread.
    var postsByThread: [UInt64: UInt64] = [:]

    init(_ events: [TraceEvent], name: String) {
        for event in events {
            switch event {
            case .history(let history) where history.name == name:
                historyPosts += history.posts
                historyDeliveries += history.deliveries
                historyUnheard += history.unheard
                postsByThread[history.thread, default: 0] += history.posts
            case .posted(let post) where post.name == name: eventPosts += 1
            case .delivered(let delivery) where delivery.name == name: eventDeliveries += 1
            default: break
            }
        }
    }

    var posts: UInt64 { historyPosts + eventPosts }
    var deliveries: UInt64 { historyDeliveries + eventDeliveries }
}

/// A viewer that attaches late receives the process's history: every post and delivery counts
/// once, as an event of its stream or inside a history line.
@Suite("Late viewer history", .serialized, .timeLimit(.minutes(10)))
struct LateViewerHistoryTests {
    @Test("a viewer attached after posts gets history lines that sum to them, true registering threads and deliveries")
    func lateViewerGetsTheHistory() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        // Registered on a thread of its own, which then exits.
        let made = LockedValue<(tokens: [NotifyToken], thread: UInt64)?>(nil)
        let registering = Thread {
            let tokens = (0..<2).map { _ in center.addObserver(forName: ping, object: nil, queue: nil) { _ in } }
            made.withLock { $0 = (tokens, NotifyThread.current.id) }
        }
        registering.start()
        #expect(eventually { made.withLock { $0 != nil } })
        let (tokens, registeringThread) = try #require(made.withLock { $0 })
        for _ in 0..<500 { center.post(name: ping) }
        let poster = LockedValue<UInt64?>(nil)
        let other = Thread {
            for _ in 0..<200 { center.post(name: ping) }
            poster.withLock { $0 = NotifyThread.current.id }
        }
        other.start()
        #expect(eventually { poster.withLock { $0 != nil } })
        for _ in 0..<30 { center.post(name: nobody) }
        center.checkpoint("before the viewer")

        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        let viewer = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 1 })
        for _ in 0..<100 { center.post(name: ping) }
        #expect(eventually { viewer.postCount == 100 })
        inspector.stop()
        let stream = viewer.finish()

        let totals = StreamTotals(stream, name: ping.rawValue)
        #expect(totals.historyPosts == 700)
        #expect(totals.historyDeliveries == 1_400)
        #expect(totals.posts == 800)
        #expect(totals.deliveries == 1_600)
        #expect(totals.postsByThread[try #require(poster.withLock { $0 })] == 200)
        let unheard = StreamTotals(stream, name: nobody.rawValue)
        #expect(unheard.historyPosts == 30 && unheard.historyUnheard == 30)

        // Every history line's thread was introduced before it.
        var introduced: Set<UInt64> = []
        for event in stream {
            if case .thread(let thread) = event { introduced.insert(thread.id) }
            if case .history(let history) = event { #expect(introduced.contains(history.thread)) }
        }
        let registrations = stream.compactMap(\.registration).filter(\.preexisting)
        #expect(registrations.count == 2)
        #expect(registrations.allSatisfy { $0.thread == registeringThread && $0.deliveries == 700 })
        let checkpoints = stream.compactMap { event -> TraceCheckpoint? in
            if case .checkpoint(let checkpoint) = event { return checkpoint }
            return nil
        }
        #expect(checkpoints.map(\.label) == ["before the viewer"])
        #expect(checkpoints.first?.preexisting == true)
        let sites = stream.compactMap { event -> TraceSiteCount? in
            if case .siteCount(let site) = event { return site }
            return nil
        }
        #expect(sites.map(\.live) == [1, 2])
        #expect(sites.allSatisfy { $0.name == ping.rawValue })
        guard case .header(let header) = stream.first else {
            Issue.record("no header first")
            return
        }
        #expect(header.since == center.historySince)
        withExtendedLifetime(tokens) {}
    }

    @Test("a second viewer joining while the first is attached gets the first's watched totals")
    func secondViewerGetsWatchedTotals() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        for _ in 0..<120 { center.post(name: ping) }
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        let first = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 1 })
        for _ in 0..<300 { center.post(name: ping) }
        #expect(eventually { first.postCount == 300 })
        let second = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 2 })
        for _ in 0..<50 { center.post(name: ping) }
        #expect(eventually { first.postCount == 350 && second.postCount == 50 })
        inspector.stop()
        let firstTotals = StreamTotals(first.finish(), name: ping.rawValue)
        let secondStream = second.finish()
        let secondTotals = StreamTotals(secondStream, name: ping.rawValue)
        #expect(firstTotals.posts == 470 && firstTotals.deliveries == 470)
        #expect(secondTotals.historyPosts == 420)
        #expect(secondTotals.posts == 470 && secondTotals.deliveries == 470)
        let registration = secondStream.compactMap(\.registration).first
        #expect(registration?.preexisting == true)
        #expect(registration?.deliveries == 420)
        withExtendedLifetime(token) {}
    }

    @Test("posts racing an attach on 4 threads count once across history and events")
    func postsRacingAnAttachCountOnce() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        // Paced below what the exporter drains, so no event is lost to a full ring.
        let posters = Posters(center, ping, threads: 4, batch: 20, pause: 200)
        #expect(eventually { posters.posted > 5_000 })
        let viewer = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 1 })
        #expect(eventually { viewer.postCount > 2_000 })
        let total = UInt64(posters.stop())
        // Every post and delivery counts once: in history, as an event, or in a gap that says it was
        // lost (a loaded host may fill a ring). Posts that found no probe just before it attached
        // reach the viewer at the next reading of the counts.
        func counted(_ stream: [TraceEvent]) -> UInt64 {
            let totals = StreamTotals(stream, name: ping.rawValue)
            return totals.posts + totals.deliveries + StreamAccount(stream).lost
        }
        #expect(eventually { counted(viewer.events) == 2 * total })
        inspector.stop()
        let stream = viewer.finish()
        #expect(counted(stream) == 2 * total)
        let totals = StreamTotals(stream, name: ping.rawValue)
        #expect(totals.posts <= total && totals.deliveries <= total)
        #expect(totals.historyPosts > 0 && totals.eventPosts > 0)
        withExtendedLifetime(token) {}
    }

    @Test("a viewer attaching after every earlier viewer left still gets what they watched")
    func watchedTotalsOutliveTheViewers() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        do {
            let reader = try TraceReader.connect(socketPath: inspector.socketPath)
            #expect(eventually { inspector.viewerCount == 1 })
            for _ in 0..<80 { center.post(name: ping) }
            // Read until the posts arrived, then hang up.
            var seen = 0
            let deadline = Date(timeIntervalSinceNow: 20)
            while seen < 80 && Date() < deadline {
                if case .event(let event) = reader.next(timeoutMilliseconds: 10), event.postName != nil { seen += 1 }
            }
            #expect(seen == 80)
        }
        #expect(eventually { inspector.viewerCount == 0 })
        for _ in 0..<40 { center.post(name: ping) }
        let viewer = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 1 })
        inspector.stop()
        let totals = StreamTotals(viewer.finish(), name: ping.rawValue)
        #expect(totals.historyPosts == 120)
        #expect(totals.historyDeliveries == 120)
        withExtendedLifetime(token) {}
    }
}
