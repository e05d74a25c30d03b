import Foundation
import NotifyKit

/// Trims its memory when the system warns, on the background queue, and says so with
/// `CacheDidEvict` (posted from that queue, never from the main thread).
final class ImageCache: @unchecked Sendable {  // immutable after init
    private let bag = TokenBag()

    init(context: DemoContext) {
        context.registered(.memoryWarning)
        bag.add(
            context.center.addObserver(
                forName: DemoName.memoryWarning.name, object: nil, deliverOn: context.targets.background
            ) { [context] _ in
                context.received(.memoryWarning)
                context.post(.cacheDidEvict)
            })
    }
}

/// Syncs when the network comes back: a block delivered on an `OperationQueue`, which posts the
/// sync's start and end from that queue.
final class SyncService: @unchecked Sendable {  // immutable after init
    private let bag = TokenBag()

    /// The `userInfo` key a reachability post carries.
    static let onlineKey = "online"

    init(context: DemoContext) {
        context.registered(.reachabilityDidChange)
        bag.add(
            context.center.addObserver(
                forName: DemoName.reachabilityDidChange.name, object: nil, deliverOn: context.targets.sync
            ) { [context] note in
                context.received(.reachabilityDidChange)
                guard note.userInfo?[SyncService.onlineKey] as? Bool == true else { return }
                context.post(.syncDidStart)
                context.post(.syncDidFinish)
            })
    }
}

/// Keeps the list of downloads on its own I/O thread (a ``DeliveryThread``).
final class DownloadStore: @unchecked Sendable {  // immutable after init
    private let bag = TokenBag()

    init(context: DemoContext) {
        for name in [DemoName.downloadDidStart, .downloadDidFinish] {
            context.registered(name)
            bag.add(
                context.center.addObserver(forName: name.name, object: nil, deliverOn: context.targets.io) {
                    [context] _ in
                    context.received(name)
                })
        }
    }
}
