import Foundation
package import NotifyKit
import NotifySystem

/// The demo driven deterministically, for tests: every lane steps on the calling thread in an
/// order drawn from the seed, and asynchronous delivery targets deliver on the posting thread.
///
/// The same configuration and step count give the same sequence of registrations, posts,
/// deliveries and removals (timestamps aside), which is what lets tests compare two runs event by
/// event and check each planted bug's fact. Only the sync operation queue runs on another
/// thread, and `post` waits for it, so the order holds.
///
/// ```swift
/// let center = NotifyCenter(label: "test")
/// let probe = InMemoryProbe()
/// let attachment = center.attach(probe)
/// let simulation = DemoSimulation(configuration: .init(scenario: .leaky, seed: 7), center: center)
/// simulation.run(steps: 500)
/// let truth = simulation.groundTruth()
/// ```
///
/// - Warning: Create, run and read a simulation on one thread; the progress queue belongs to it
///   and is flushed by spinning that thread's run loop.
package final class DemoSimulation {
    /// The center the app registers on and posts to.
    package let center: NotifyCenter
    private let app: DemoApp
    private let operations: OperationQueue
    private var scheduler: SplitMix64
    private var launched = false
    /// Steps performed so far.
    package private(set) var steps = 0

    /// Builds the app on the calling thread (its main lane) without performing any step.
    ///
    /// - Parameter syncCenter: The sync service's own center, when the run inspects it beside
    ///   `center` (the `other-center` silent bug registers there); nil for one center.
    package init(configuration: DemoConfiguration, center: NotifyCenter, syncCenter: NotifyCenter? = nil) {
        self.center = center
        operations = OperationQueue()
        operations.name = "demo.sync"
        operations.maxConcurrentOperationCount = 1
        let context = DemoContext(
            center: center, syncCenter: syncCenter, configuration: configuration, mode: .deterministic,
            targets: .deterministic(sync: operations))
        app = DemoApp(context: context)
        scheduler = SplitMix64(seed: configuration.seed).fork(UInt64.max)
    }

    /// The thread the simulation runs on. It plays the main thread, but it is not the process's
    /// main thread, so UI observers do not declare `mainThreadOnly` here; only the
    /// `background-to-main` bug's observer does, which keeps that bug's fact visible (a delivery on
    /// a non-main thread) while a clean run has none.
    package var mainLaneThread: NotifyThread { app.mainThread }

    /// Performs `count` more steps: each goes to the main lane or one worker lane, chosen by the
    /// seed; the main lane's run loop is spun after each main step, posting coalesced progress.
    package func run(steps count: Int) {
        if !launched {
            launched = true
            app.mainLane.launch()
        }
        let workers = app.workerLanes
        for _ in 0..<count {
            if scheduler.chance(0.5) {
                app.mainLane.step()
                flushRunLoop()
            } else {
                workers[scheduler.below(workers.count)].step()
            }
            steps += 1
        }
        flushRunLoop()
    }

    /// Posts and handler runs so far over all threads, from the demo's own tallies: for pacing,
    /// cheaper than ``groundTruth()``.
    package var tallied: (posts: Int, deliveries: Int) {
        app.context.tally.snapshot().reduce((0, 0)) { total, counts in
            (total.0 + counts.posts.reduce(0, +), total.1 + counts.deliveries.reduce(0, +))
        }
    }

    /// The demo's own counts so far.
    package func groundTruth() -> GroundTruth {
        app.groundTruth()
    }

    private func flushRunLoop() {
        guard app.mainLane.relay.pending > 0 else { return }
        _ = RunLoop.current.run(mode: .default, before: Date())
    }
}
