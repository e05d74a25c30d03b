import Foundation
import NotifyKit
import NotifySystem

/// One worker thread's share of the workload: downloads, incoming messages, reachability, auth
/// token refreshes, cache trimming and cart syncs. Everything it posts is a background name; its
/// choices come from its own ``SplitMix64`` stream, so its sequence depends only on the seed and
/// its index, never on how the threads interleave.
final class WorkerLane: @unchecked Sendable {  // used by its own thread only
    enum Action: CaseIterable {
        case startDownload, progress, finishDownload, message, reachability, tokenRefresh, trimCache, syncCart
    }

    /// Posts every background name once, starting with the network coming up.
    static let tour: [Action] = [
        .reachability, .tokenRefresh, .startDownload, .progress, .progress, .finishDownload, .message, .trimCache,
        .syncCart,
    ]

    static let maxDownloads = 3

    let index: Int
    private let context: DemoContext
    private let relay: ProgressRelay
    private var rng: SplitMix64
    private var downloads: [Download] = []
    private var downloadCounter = 0
    private var online = false
    private(set) var steps = 0

    init(context: DemoContext, relay: ProgressRelay, index: Int, rng: SplitMix64) {
        self.context = context
        self.relay = relay
        self.index = index
        self.rng = rng
    }

    /// Performs one action: the tour's next, then a weighted random choice.
    func step() {
        let action = steps < Self.tour.count ? Self.tour[steps] : pick()
        perform(action)
        steps += 1
    }

    private func pick() -> Action {
        let weights = Action.allCases.map { action -> Int in
            switch action {
            case .startDownload: downloads.count < Self.maxDownloads ? 2 : 0
            case .progress: downloads.isEmpty ? 0 : 8
            case .finishDownload: downloads.contains { $0.fraction >= 0.5 } ? 3 : 0
            case .message: 5
            case .reachability, .tokenRefresh, .trimCache: 1
            case .syncCart: 2
            }
        }
        return Action.allCases[rng.weighted(weights)]
    }

    private func perform(_ action: Action) {
        switch action {
        case .startDownload:
            downloadCounter += 1
            let download = Download(number: index * 1_000_000 + downloadCounter)
            downloads.append(download)
            context.post(.downloadDidStart, object: download)
        case .progress:
            guard !downloads.isEmpty else { return }
            let download = downloads[rng.below(downloads.count)]
            for _ in 0..<(1 + rng.below(4)) {
                download.fraction = min(1, download.fraction + 0.05 + 0.1 * rng.unit())
                relay.report(download, fraction: download.fraction)
            }
        case .finishDownload:
            // During the tour the first download finishes whatever its progress, so the name is posted.
            let inTour = steps < Self.tour.count && !downloads.isEmpty
            guard let position = downloads.firstIndex(where: { $0.fraction >= 0.5 }) ?? (inTour ? 0 : nil) else {
                return
            }
            let download = downloads.remove(at: position)
            download.fraction = 1
            context.post(.downloadDidFinish, object: download)
        case .message:
            context.post(.messageDidArrive, userInfo: ["from": "user\(rng.below(50))"])
        case .reachability:
            online.toggle()
            context.post(.reachabilityDidChange, userInfo: [SyncService.onlineKey: online])
        case .tokenRefresh:
            context.post(.tokenDidRefresh)
        case .trimCache:
            context.post(.cacheDidEvict)
        case .syncCart:
            CartSync(context: context).cartDidSync()
        }
    }
}
