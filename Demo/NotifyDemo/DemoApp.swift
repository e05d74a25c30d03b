import Foundation
import NotifyKit
import NotifySystem

/// The demo app as a whole: the long-lived services, the UI (inside the main lane) and the worker
/// lanes, all on one ``NotifyCenter``. Drivers decide where and when lanes step:
/// ``DemoSimulation`` on one thread for tests, ``LiveDemo`` on real threads for `notify-demo`.
final class DemoApp: @unchecked Sendable {  // built on the main lane; lanes are each used by one thread
    let context: DemoContext
    let mainLane: MainLane
    let workerLanes: [WorkerLane]
    /// The main lane's thread: where the progress queue posts.
    let mainThread: NotifyThread
    private let started = MonotonicClock.now()
    /// Long-lived services: created at launch, alive as long as the app.
    private let services: [AnyObject]

    /// Builds the app on the calling thread, which becomes the main lane.
    init(context: DemoContext) {
        self.context = context
        mainThread = NotifyThread.current
        var services: [AnyObject] = [
            AnalyticsService(context: context), SessionStore(context: context), ImageCache(context: context),
            SyncService(context: context), DownloadStore(context: context),
        ]
        if let paywall = PaywallListener(context: context) { services.append(paywall) }
        if let badge = MiniCartBadge(context: context) { services.append(badge) }
        if let indexer = SearchIndexer(context: context) { services.append(indexer) }
        self.services = services
        let root = SplitMix64(seed: context.configuration.seed)
        let mainLane = MainLane(context: context, rng: root.fork(0))
        self.mainLane = mainLane
        workerLanes = (1...max(1, context.configuration.threads)).map { index in
            WorkerLane(context: context, relay: mainLane.relay, index: index, rng: root.fork(UInt64(index)))
        }
    }

    /// Seconds since the app was built.
    var elapsed: Double {
        Double(MonotonicClock.now() - started) / 1e9
    }

    /// The ground truth now. Must run on the main lane, which owns the progress queue.
    func groundTruth() -> GroundTruth {
        let relay = mainLane.relay
        return GroundTruth(
            configuration: context.configuration, elapsed: elapsed, tallies: context.tally.snapshot(),
            queue: .init(
                enqueued: relay.enqueued, coalesced: relay.coalesced, pending: relay.pending,
                posted: relay.posted),
            queueThread: mainThread, registrationsLive: centers.map(\.registrationCount).reduce(0, +),
            liveByName: centers.map(Self.liveRegistrationsByName).reduce(into: [:]) {
                $0.merge($1, uniquingKeysWith: +)
            },
            registrationsMade: context.registrations.snapshot,
            planted: context.planted, silentBugs: context.silentBugs.snapshot)
    }

    /// The centers the app registers on: its own, and the sync service's when inspected.
    private var centers: [NotifyCenter] { [context.center] + (context.syncCenter.map { [$0] } ?? []) }

    /// The center's live registrations per name, read from its own table (its debug listing: one
    /// line per registration, the name second), not from any probe.
    static func liveRegistrationsByName(_ center: NotifyCenter) -> [String: Int] {
        var live: [String: Int] = [:]
        for line in center.debugDescription.split(separator: "\n").dropFirst() {
            let fields = line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")
            guard fields.count > 1 else { continue }
            live[fields[1], default: 0] += 1
        }
        return live
    }
}
