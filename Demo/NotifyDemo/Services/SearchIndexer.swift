import NotifyKit
import Synchronization

/// Re-indexes saved documents off the main thread: an observer of the async ``DocumentSaved``
/// message, registered at launch and kept for the app's lifetime. After a suspension (the index
/// write) it posts `SearchIndexDidUpdate`, which the search suggestions hear inline: a post made
/// inside an `AsyncMessage` call, often on another thread than the one the call started on.
///
/// Live only, like every typed message of the demo (see ``DemoContext/typedMessages``).
final class SearchIndexer: @unchecked Sendable {  // immutable after init
    private let token: NotifyCenter.ObservationToken
    private let suggestions: NotifyToken

    init?(context: DemoContext) {
        guard context.typedMessages else { return nil }
        context.registered(.searchIndexDidUpdate)
        suggestions = context.center.addObserver(
            forName: DemoName.searchIndexDidUpdate.name, object: nil, deliverOn: .posting
        ) { [context] _ in
            context.received(.searchIndexDidUpdate)
        }
        context.registered(.documentSaved)
        token = context.center.addObserver(for: DocumentSaved.self) { [context] _ in
            context.received(.documentSaved)
            await Task.yield()
            context.post(.searchIndexDidUpdate)
            context.asyncMessagesInFlight.subtract(1, ordering: .releasing)
        }
    }
}
