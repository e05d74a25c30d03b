import NotifyKit

/// NotifyKit's `NotifyCenter`, through the same typed message API.
struct NotifyKitMessageCenter: MessageBenchCenter {
    static let column = Column.notifyKit
    let center = NotifyCenter(label: "bench")

    @MainActor func observeMain(
        _ handler: @escaping @MainActor (BenchMainMessage) -> Void
    ) -> NotifyCenter.ObservationToken {
        center.addObserver(for: BenchMainMessage.self, using: handler)
    }

    @MainActor func post(_ message: BenchMainMessage) {
        center.post(message)
    }

    func observeAsync(
        _ handler: @escaping @Sendable (BenchAsyncMessage) async -> Void
    ) -> NotifyCenter.ObservationToken {
        center.addObserver(for: BenchAsyncMessage.self, using: handler)
    }

    func post(_ message: BenchAsyncMessage) {
        center.post(message)
    }

    func remove(_ token: NotifyCenter.ObservationToken) {
        center.removeObserver(token)
    }
}
