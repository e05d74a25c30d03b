import Foundation
import Synchronization

/// The subject the message benchmarks post about: a class, so observers may filter on it.
final class BenchSubject: Sendable {}

/// A main-actor message, declared once against Foundation's protocol, which NotifyKit shares.
struct BenchMainMessage: NotificationCenter.MainActorMessage {
    typealias Subject = BenchSubject
    let value: Int
}

/// An async message for the end-to-end burst rows.
struct BenchAsyncMessage: NotificationCenter.AsyncMessage {
    typealias Subject = BenchSubject
    let value: Int
}

/// Counts deliveries from any thread and wakes one waiter when the count reaches its goal: how the
/// async rows learn that a burst was delivered, without polling or sleeping.
final class DeliveryGoal: Sendable {
    private let delivered = Atomic<Int>(0)
    private let goal = Atomic<Int>(.max)
    private let reached = DispatchSemaphore(value: 0)

    var count: Int { delivered.load(ordering: .acquiring) }

    /// Expects `goal` deliveries in all; the count is reset.
    func expect(_ goal: Int) {
        delivered.store(0, ordering: .releasing)
        self.goal.store(goal, ordering: .releasing)
    }

    /// Counts one delivery, called by observers.
    func deliver() {
        let now = delivered.add(1, ordering: .acquiringAndReleasing).newValue
        if now == goal.load(ordering: .acquiring) { reached.signal() }
    }

    /// Waits until the goal is reached; false after `seconds` without it.
    func wait(seconds: Int) -> Bool {
        reached.wait(timeout: .now() + .seconds(seconds)) == .success
    }
}

/// A center the message workloads drive the same way; generic workloads are specialised per
/// center, so the adapter costs nothing.
protocol MessageBenchCenter: Sendable {
    associatedtype Token
    static var column: Column { get }
    init()
    @MainActor func observeMain(_ handler: @escaping @MainActor (BenchMainMessage) -> Void) -> Token
    @MainActor func post(_ message: BenchMainMessage)
    func observeAsync(_ handler: @escaping @Sendable (BenchAsyncMessage) async -> Void) -> Token
    func post(_ message: BenchAsyncMessage)
    func remove(_ token: Token)
}

/// Foundation's `NotificationCenter`.
struct FoundationMessageCenter: MessageBenchCenter {
    static let column = Column.foundation
    let center = NotificationCenter()

    @MainActor func observeMain(
        _ handler: @escaping @MainActor (BenchMainMessage) -> Void
    ) -> NotificationCenter.ObservationToken {
        center.addObserver(for: BenchMainMessage.self, using: handler)
    }

    @MainActor func post(_ message: BenchMainMessage) {
        center.post(message)
    }

    func observeAsync(
        _ handler: @escaping @Sendable (BenchAsyncMessage) async -> Void
    ) -> NotificationCenter.ObservationToken {
        center.addObserver(for: BenchAsyncMessage.self, using: handler)
    }

    func post(_ message: BenchAsyncMessage) {
        center.post(message)
    }

    func remove(_ token: NotificationCenter.ObservationToken) {
        center.removeObserver(token)
    }
}
