import NotifyKit
import Synchronization

/// Re-indexes saved documents off the main thread: an observer of the async ``DocumentSaved``
/// message, registered at launch and kept for the app's lifetime.
///
/// Live only, like every typed message of the demo (see ``DemoContext/typedMessages``).
final class SearchIndexer: @unchecked Sendable {  // immutable after init
    private let token: NotifyCenter.ObservationToken

    init?(context: DemoContext) {
        guard context.typedMessages else { return nil }
        context.registered(.documentSaved)
        token = context.center.addObserver(for: DocumentSaved.self) { [context] _ in
            context.received(.documentSaved)
            context.asyncMessagesInFlight.subtract(1, ordering: .releasing)
        }
    }

}
