import NotifyKit

/// Pulls the cart from the server on a worker thread, then announces the change. Clean, the
/// announcement hops to the main thread first, since cart observers are UI. With
/// `background-to-main` it posts right there on the worker, running main-thread-only handlers
/// off the main thread (R8).
struct CartSync {
    let context: DemoContext

    /// Called on a worker lane after a sync brought changes.
    func cartDidSync() {
        if context.has(.backgroundToMain) {
            // The bug: no hop; delivery follows the posting thread.
            context.planted.plant(.backgroundToMain)
            context.post(.cartDidChange)
        } else {
            context.onMain { [context] in context.post(.cartDidChange) }
        }
    }
}

/// A compact cart badge declared main-thread-only, installed with `background-to-main`; the bug
/// itself is ``CartSync`` posting `CartDidChange` from a worker thread, which runs this handler
/// there (R8). Declared unconditionally, so the mismatch is visible even in the deterministic mode,
/// where no UI observer can truthfully claim the main thread.
final class MiniCartBadge: @unchecked Sendable {  // immutable after init
    private let bag = TokenBag()

    init?(context: DemoContext) {
        guard context.has(.backgroundToMain) else { return nil }
        context.registered(.cartDidChange)
        bag.add(
            context.center.addObserver(
                forName: DemoName.cartDidChange.name, object: nil, deliverOn: .posting, mainThreadOnly: true
            ) { [context] _ in
                context.received(.cartDidChange)
            })
    }
}
