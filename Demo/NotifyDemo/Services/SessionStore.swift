import Foundation
import NotifyKit
import Synchronization

/// Holds the signed-in user. Learns about refreshed auth tokens through a target–action observer
/// (the Linux analog of `addObserver(_:selector:…)`), called on the worker thread that refreshed.
final class SessionStore: @unchecked Sendable {  // `refreshes` is atomic; the rest is immutable
    private let context: DemoContext
    private let refreshes = Atomic<Int>(0)

    init(context: DemoContext) {
        self.context = context
        context.registered(.tokenDidRefresh)
        context.center.addObserver(
            self, action: SessionStore.tokenRefreshed, name: DemoName.tokenDidRefresh.name,
            object: nil)
    }

    /// The number of token refreshes seen.
    var refreshCount: Int { refreshes.load(ordering: .relaxed) }

    private func tokenRefreshed(_ note: Notification) {
        context.received(.tokenDidRefresh)
        refreshes.add(1, ordering: .relaxed)
    }
}
