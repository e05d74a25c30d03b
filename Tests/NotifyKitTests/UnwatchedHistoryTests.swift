import Dispatch
import Foundation
import NotifyKit
import NotifyTestSupport
import Synchronization
import Testing

/// The center counts what no probe watches, so a probe attached late learns the process's history.
@Suite struct UnwatchedHistoryTests {
    private static func counts(_ center: NotifyCenter, name: String?) -> [UInt64: HistoryCounts] {
        var byThread: [UInt64: HistoryCounts] = [:]
        for (key, counts) in center.history().counts where key.name == name { byThread[key.thread] = counts }
        return byThread
    }

    @Test func postsAndDeliveriesCountExactlyPerThreadUnderSeveralPostingThreads() {
        let center = NotifyCenter(label: "history")
        let delivered = Counter()
        let tokens = (0..<3).map { _ in
            center.addObserver(forName: .testN, object: nil, queue: nil) { _ in delivered.increment() }
        }
        let threads = Recorder<UInt64>()
        let postsPerThread = 2_000
        concurrently(threads: 4) { _ in
            threads.append(NotifyThread.current.id)
            for _ in 0..<postsPerThread { center.post(name: .testN) }
        }
        let counts = Self.counts(center, name: "N")
        #expect(Set(counts.keys) == Set(threads.all))
        for thread in threads.all {
            #expect(
                counts[thread] == HistoryCounts(posts: UInt64(postsPerThread), deliveries: UInt64(3 * postsPerThread)))
        }
        #expect(delivered.value == 4 * 3 * postsPerThread)
        withExtendedLifetime(tokens) {}
    }

    @Test func aRegistrationCountsItsDeliveriesAndItsRegisteringThread() throws {
        let center = NotifyCenter(label: "history")
        let made = Slot<(NotifyToken, UInt64)>()
        #expect(
            finishes {
                let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
                made.value = (token, NotifyThread.current.id)
            })
        let (token, registeringThread) = try #require(made.value)
        for _ in 0..<25 { center.post(name: .testN) }
        let registration = try #require(withProbe(on: center) { $0.registrations.first })
        #expect(registration.deliveries == 25)
        let event = try #require(withProbe(on: center) { $0.events.first })
        #expect(event.thread == registeringThread)
        #expect(event.thread != NotifyThread.current.id)
        withExtendedLifetime(token) {}
    }

    @Test func postsNoOneHearsCountAsUnheard() {
        let center = NotifyCenter(label: "history")
        let other = center.addObserver(forName: .testN, object: Subject(1), queue: nil) { _ in }
        for _ in 0..<7 { center.post(name: .testOther) }
        // Observed, but the object filter declines every post.
        for _ in 0..<5 { center.post(name: .testN, object: Subject(2)) }
        let me = NotifyThread.current.id
        #expect(Self.counts(center, name: "other")[me] == HistoryCounts(posts: 7, unheard: 7))
        #expect(Self.counts(center, name: "N")[me] == HistoryCounts(posts: 5, unheard: 5))
        withExtendedLifetime(other) {}
    }

    @Test func namesBeyondTheCapacityCountUnderNoNameAndNothingIsLost() {
        let center = NotifyCenter(label: "history")
        let names = NotifyHistory.keptNames + 51
        for index in 0..<names { center.post(name: Notification.Name("name-\(index)")) }
        let history = center.history()
        let me = NotifyThread.current.id
        let mine = history.counts.filter { $0.key.thread == me }
        #expect(mine.values.reduce(0) { $0 + $1.posts } == UInt64(names))
        #expect(mine.count == NotifyHistory.keptNames + 1)
        #expect(history.hasUnkeptNames)
        #expect(mine[NotifyHistory.Key(thread: me, name: nil)]?.posts == 51)
    }

    @Test func anExitedThreadsCountsStayUnderItsID() throws {
        let center = NotifyCenter(label: "history")
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let poster = Slot<UInt64>()
        let thread = Thread {
            poster.value = NotifyThread.current.id
            for _ in 0..<9 { center.post(name: .testN) }
        }
        thread.start()
        let id = try #require(eventually { poster.value != nil } ? poster.value : nil)
        // Gone from the registry once its exit ran the key's destructor, which closes its counters.
        #expect(eventually { NotifyThread.lookup(id) == nil })
        // A new thread counting for the center folds the exited one's counters.
        #expect(finishes { center.post(name: .testOther) })
        #expect(Self.counts(center, name: "N")[id] == HistoryCounts(posts: 9, deliveries: 9))
        withExtendedLifetime(token) {}
    }

    @Test func aHandedOffDeliveryCountsOnTheThreadThatRunsIt() throws {
        let center = NotifyCenter(label: "history")
        let deliveryThread = DeliveryThread(name: "tests.history-delivery")
        let ran = Slot<UInt64>()
        let done = DispatchSemaphore(value: 0)
        let token = center.addObserver(forName: .testN, object: nil, deliverOn: .thread(deliveryThread)) { _ in
            ran.value = NotifyThread.current.id
            done.signal()
        }
        center.post(name: .testN)
        #expect(wait(done))
        let runner = try #require(ran.value)
        let me = NotifyThread.current.id
        #expect(runner != me)
        // The counter is written after the handler returns.
        #expect(eventually { Self.counts(center, name: "N")[runner] == HistoryCounts(deliveries: 1) })
        #expect(Self.counts(center, name: "N")[me] == HistoryCounts(posts: 1))
        withExtendedLifetime(token) {}
    }

    @Test func probedPostsCountNothingAndUnwatchedOnesCountAgainAfterDetaching() {
        let center = NotifyCenter(label: "history")
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        center.post(name: .testN)
        withProbe(on: center) { probe in
            for _ in 0..<10 { center.post(name: .testN) }
            #expect(probe.posts.count == 10)
        }
        center.post(name: .testN)
        #expect(Self.counts(center, name: "N")[NotifyThread.current.id] == HistoryCounts(posts: 2, deliveries: 2))
        withExtendedLifetime(token) {}
    }

    @Test func postsRacingAnAttachCountOnceAcrossEventsAndHistory() {
        let center = NotifyCenter(label: "history")
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let postsPerThread = 3_000
        let probe = InMemoryProbe()
        let attachment = Later<NotifyProbeAttachment>()
        let before = Slot<NotifyHistory>()
        concurrently(threads: 5) { index in
            guard index == 0 else {
                for _ in 0..<postsPerThread { center.post(name: .testN) }
                return
            }
            usleep(200)
            attachment.value = center.attach(probe)
            before.value = center.history()
        }
        let after = center.history()
        let events = UInt64(probe.posts.count)
        let counted = after.counts.values.reduce(0) { $0 + $1.posts }
        #expect(events + counted == UInt64(4 * postsPerThread))
        // Some posts may have ended unwatched after the attach: they count later, never twice.
        let atAttach = before.value?.counts.values.reduce(0) { $0 + $1.posts } ?? 0
        #expect(atAttach <= counted)
        attachment.value?.detach()
        withExtendedLifetime(token) {}
    }

    @Test func checkpointsAreRememberedWatchedOrNot() {
        let center = NotifyCenter(label: "history")
        for index in 0..<70 { center.checkpoint("step \(index)") }
        withProbe(on: center) { _ in center.checkpoint("watched") }
        let checkpoints = center.history().checkpoints
        #expect(checkpoints.count == 64)
        #expect(checkpoints.first?.label == "step 7")
        #expect(checkpoints.last?.label == "watched")
        #expect(checkpoints.last?.watched == true)
        #expect(checkpoints.dropLast().allSatisfy { !$0.watched })
        #expect(checkpoints.map(\.timestamp) == checkpoints.map(\.timestamp).sorted())
    }

    @Test func eachSiteKeepsItsLiveCountAfterItsLatestChanges() {
        let center = NotifyCenter(label: "history")
        func register() -> NotifyToken {
            center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        }
        var tokens = (0..<20).map { _ in register() }
        tokens.removeLast().cancel()
        let sites = center.history().siteCounts
        #expect(sites.count == 1)
        let site = sites.first
        #expect(site?.name == "N")
        #expect(site?.changes.count == 16)
        #expect(site?.changes.map(\.live) == Array(6...20) + [19])
        #expect(site?.changes.map(\.timestamp) == site?.changes.map(\.timestamp).sorted())
        tokens.forEach { $0.cancel() }
        #expect(center.history().siteCounts.isEmpty)
    }

    @Test func siteCountsKeepABoundedNumberOfPairsAndReplaceIdleOnes() {
        let center = NotifyCenter(label: "history")
        func register(_ name: String) -> NotifyToken {
            center.addObserver(forName: Notification.Name(name), object: nil, queue: nil) { _ in }
        }
        var tokens = (0..<1_100).map { register("site-\($0)") }
        #expect(center.history().siteCounts.count == 1_024)
        tokens.forEach { $0.cancel() }
        #expect(center.history().siteCounts.isEmpty)
        tokens = (0..<10).map { register("fresh-\($0)") }
        #expect(Set(center.history().siteCounts.compactMap(\.name)) == Set((0..<10).map { "fresh-\($0)" }))
        tokens.forEach { $0.cancel() }
    }

    @Test func aPairNotKeptWhileTheLogIsFullIsKeptOnceAPairGoesIdle() {
        let center = NotifyCenter(label: "history")
        func register(_ name: String) -> NotifyToken {
            center.addObserver(forName: Notification.Name(name), object: nil, queue: nil) { _ in }
        }
        let full = (0..<1_024).map { register("site-\($0)") }
        // Not kept, in turn, while every kept pair is live.
        for _ in 0..<3 { register("late").cancel() }
        #expect(!center.history().siteCounts.contains { $0.name == "late" })
        full[0].cancel()
        let late = register("late")
        let kept = center.history().siteCounts.first { $0.name == "late" }
        #expect(kept?.changes.last?.live == 1)
        #expect(!center.history().siteCounts.contains { $0.name == "site-0" })
        late.cancel()
        full.forEach { $0.cancel() }
    }

    @Test func historyStartsWhenTheCenterIsMade() {
        let before = MonotonicClock.now()
        let center = NotifyCenter(label: "history")
        #expect(center.history().since >= before)
        #expect(center.history().since <= MonotonicClock.now())
    }
}
