import Foundation
import NotifyKit

/// Flushes crash breadcrumbs when the app resigns active; the SDK starts lazily, a while after
/// launch (``MainLane/crashReporterStep``). Clean, it keeps its token. With `dropped-token` it
/// discards the token of its block registration at once: the block keeps running and nothing can
/// remove it any more (R1).
final class CrashReporter: @unchecked Sendable {  // immutable after init
    private let bag = TokenBag()

    init(context: DemoContext) {
        let block: @Sendable (Notification) -> Void = { [context] _ in context.received(.appWillResignActive) }
        if context.has(.droppedToken) {
            // The bug: the token is not stored (SwiftLint's discarded_notification_center_observer).
            context.registered(.appWillResignActive)
            _ = context.center.addObserver(
                forName: DemoName.appWillResignActive.name, object: nil, queue: nil,
                using: block)
            context.planted.plant(.droppedToken)
        } else {
            context.registered(.appWillResignActive)
            bag.add(
                context.center.addObserver(
                    forName: DemoName.appWillResignActive.name, object: nil, queue: nil,
                    using: block))
        }
    }
}
