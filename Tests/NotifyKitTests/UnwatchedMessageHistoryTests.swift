import Foundation
import NotifyKit
import Testing
import NotifyTestSupport

/// Typed messages count unwatched like notifications, under their type's name.
@Suite struct UnwatchedMessageHistoryTests {
    private static func counts(_ center: NotifyCenter, typeNamed suffix: String) -> [UInt64: HistoryCounts] {
        var byThread: [UInt64: HistoryCounts] = [:]
        for (key, counts) in center.history().counts where key.name?.hasSuffix(suffix) == true {
            byThread[key.thread] = counts
        }
        return byThread
    }

    @MainActor @Test func mainActorMessagesCountPostsDeliveriesAndUnheardPosts() {
        let center = NotifyCenter(label: "history")
        let tokens = (0..<2).map { _ in center.addObserver(for: Tapped.self) { _ in } }
        for value in 0..<3 { center.post(Tapped(value: value)) }
        center.post(Scrolled())
        let me = NotifyThread.current.id
        #expect(Self.counts(center, typeNamed: "Tapped")[me] == HistoryCounts(posts: 3, deliveries: 6))
        #expect(Self.counts(center, typeNamed: "Scrolled")[me] == HistoryCounts(posts: 1, unheard: 1))
        withExtendedLifetime(tokens) {}
    }

    @Test func anAsyncMessageDeliveryCountsWhereTheObserverRuns() async throws {
        let center = NotifyCenter(label: "history")
        let ran = Slot<UInt64>()
        let token = center.addObserver(for: Synced.self) { _ in ran.value = NotifyThread.current.id }
        let poster = NotifyThread.current.id
        center.post(Synced(value: 1))
        #expect(await eventually { ran.value != nil })
        let runner = try #require(ran.value)
        #expect(
            await eventually {
                let counts = Self.counts(center, typeNamed: "Synced")
                let deliveries = counts.values.reduce(0) { $0 + $1.deliveries }
                return deliveries == 1 && counts[runner]?.deliveries == 1
            })
        #expect(Self.counts(center, typeNamed: "Synced")[poster]?.posts == 1)
        center.removeObserver(token)
    }

    @Test func aSequenceCountsOnlyTheMessagesItsConsumerTook() async {
        let center = NotifyCenter(label: "history")
        var iterator = center.messages(for: Synced.self, bufferSize: 2).makeAsyncIterator()
        for value in 0..<5 { center.post(Synced(value: value)) }
        func deliveries() -> UInt64 {
            Self.counts(center, typeNamed: "Synced").values.reduce(0) { $0 + $1.deliveries }
        }
        #expect(deliveries() == 0, "a buffered message is not delivered yet")
        _ = await iterator.next(isolation: nil)
        _ = await iterator.next(isolation: nil)
        #expect(deliveries() == 2, "the three the full buffer dropped were never delivered")
        #expect(Self.counts(center, typeNamed: "Synced").values.reduce(0) { $0 + $1.posts } == 5)
        withExtendedLifetime(iterator) {}
    }
}
