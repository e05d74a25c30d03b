import Dispatch
import Foundation
import NotifyKit
package import NotifySystem
import NotifyTraceApp
import Synchronization

/// The demo on real threads, as `notify-demo` runs it: the main thread runs its run loop (which
/// drains the main queue and posts coalesced progress) and performs the main lane from a timer;
/// each worker lane has its own thread; handlers also run on a dispatch queue, an operation queue
/// and a ``DeliveryThread``.
///
/// Each thread's registrations and posts follow the seed; how threads interleave, and where the
/// hops to the main thread land, is up to timing.
package final class LiveDemo: @unchecked Sendable {  // main-thread state is touched only on the main thread
    /// What the command line adds to a configuration.
    package struct Options: Sendable {
        /// Start the trace-stream endpoint so notifytop can attach.
        package var inspect = true
        /// Write the ground truth here as JSON instead of printing it.
        package var truthPath: String?
        /// The socket directory; nil uses ``SocketDirectory/standard``.
        package var socketDirectory: SocketDirectory?
        /// Seconds to wait for the first viewer before starting the workload, so a recording (and
        /// the fidelity check against the ground truth) sees the run from its first registration.
        package var waitForViewer: Double?

        package init(
            inspect: Bool = true, truthPath: String? = nil, socketDirectory: SocketDirectory? = nil,
            waitForViewer: Double? = nil
        ) {
            self.inspect = inspect
            self.truthPath = truthPath
            self.socketDirectory = socketDirectory
            self.waitForViewer = waitForViewer
        }
    }

    private let configuration: DemoConfiguration
    private let options: Options
    private let center = NotifyCenter(label: "notify-demo")
    /// The sync service's own center, streamed beside the app's by the same inspector when the
    /// silent bugs are planted (one of them registers there).
    private let syncCenter = NotifyCenter(label: "notify-demo.sync")
    private let background = DispatchQueue(label: "demo.analytics")
    private let operations = OperationQueue()
    private let io = DeliveryThread(name: "demo-io")
    private let stopping = Atomic<Bool>(false)
    private let signals = SignalWatcher()
    private var inspector: NotifyInspector?
    private var app: DemoApp?
    private var workersDone: [DispatchSemaphore] = []
    private var stopRequested = false

    package init(configuration: DemoConfiguration, options: Options) {
        self.configuration = configuration
        self.options = options
        operations.name = "demo.sync"
        operations.maxConcurrentOperationCount = 1
    }

    /// Runs until `--duration` passes or SIGINT/SIGTERM arrives, then reports and exits with 0.
    /// Must be called on the main thread.
    package func run() -> Never {
        startInspector()
        let context = DemoContext(
            center: center, syncCenter: inspectedCenters.count > 1 && inspector != nil ? syncCenter : nil,
            configuration: configuration, mode: .live,
            targets: .live(background: background, io: io, sync: operations))
        let app = DemoApp(context: context)
        self.app = app
        say(describeConfiguration())
        signals.watch(SIGINT) { [self] in stopRequested = true }
        signals.watch(SIGTERM) { [self] in stopRequested = true }
        signals.watch(SIGUSR1) { [self] in report(app.groundTruth()) }
        // Every lane paces against the posts of all threads (handlers post too), so --rate is the
        // process's rate; lanes that find the budget spent wait their turn.
        let pacer = Pacer(rate: configuration.rate, scenario: configuration.scenario)
        for lane in app.workerLanes { startWorker(lane, pacer: pacer) }
        app.mainLane.launch()
        scheduleMainLane(app, pacer: pacer)
        while !stopRequested {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.1))
        }
        finish(app)
    }

    private var inspectedCenters: [NotifyCenter] {
        configuration.silentBugs ? [center, syncCenter] : [center]
    }

    private func startInspector() {
        guard options.inspect else {
            say("pid \(getpid()) (inspector off)")
            return
        }
        do {
            let inspector = try NotifyInspector.start(
                centers: inspectedCenters, directory: options.socketDirectory ?? .standard)
            self.inspector = inspector
            say("pid \(getpid()), socket \(inspector.socketPath)  (attach: notifytop --pid \(getpid()))")
            if let wait = options.waitForViewer {
                say("waiting up to \(wait) s for a viewer")
                let deadline = Date(timeIntervalSinceNow: wait)
                while inspector.viewerCount == 0, Date() < deadline { usleep(10_000) }
            }
        } catch {
            say("pid \(getpid()); inspector not started: \(error)")
        }
    }

    private func describeConfiguration() -> String {
        let rate = configuration.rate.map { "\(Int($0)) posts/s" } ?? "unlimited rate"
        let duration = configuration.duration.map { "for \($0) s" } ?? "until Ctrl-C"
        let bugs = configuration.bugs.isEmpty ? "none" : configuration.bugs.map(\.rawValue).joined(separator: ", ")
        return "scenario \(configuration.scenario.rawValue): \(rate), seed \(configuration.seed), "
            + "\(max(1, configuration.threads)) worker thread(s), \(duration); bugs: \(bugs)"
    }

    /// The main lane: a repeating timer on the main run loop performs steps until the lane is
    /// ahead of its allowance or a few milliseconds pass, then lets the loop turn.
    private func scheduleMainLane(_ app: DemoApp, pacer: Pacer) {
        let interval = configuration.rate == nil ? 0.001 : 0.005
        let duration = configuration.duration
        let lane = app.mainLane
        let timer = Timer(timeInterval: interval, repeats: true) { [self] timer in
            if let duration, app.elapsed >= duration { stopRequested = true }
            guard !stopRequested else {
                timer.invalidate()
                return
            }
            let context = app.context
            let deadline = MonotonicClock.now() + 8_000_000
            while !stopRequested, pacer.delay(afterPosts: context.pacedPosts.load(ordering: .relaxed)) == 0,
                MonotonicClock.now() < deadline
            {
                lane.step()
            }
        }
        RunLoop.main.add(timer, forMode: .default)
    }

    private func startWorker(_ lane: WorkerLane, pacer: Pacer) {
        let named = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        workersDone.append(done)
        let thread = Thread { [self] in
            // A name set before start() is lost on Linux; set it from the thread once start() returned.
            named.wait()
            Thread.current.name = "worker-\(lane.index)"
            runWorker(lane, pacer: pacer)
            done.signal()
        }
        thread.start()
        named.signal()
    }

    private func runWorker(_ lane: WorkerLane, pacer: Pacer) {
        let context = app!.context
        while !stopping.load(ordering: .relaxed) {
            lane.step()
            if lane.steps % 256 == 0 { waitForConsumers() }
            var delay = pacer.delay(afterPosts: context.pacedPosts.load(ordering: .relaxed))
            while delay > 0, !stopping.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: delay)
                delay = pacer.delay(afterPosts: context.pacedPosts.load(ordering: .relaxed))
            }
        }
    }

    /// Backpressure for unpaced runs: lets the asynchronous consumers (dispatch queue, I/O thread,
    /// main queue) catch up, so hand-offs cannot pile up without bound.
    private func waitForConsumers() {
        background.sync {}
        let ioDone = DispatchSemaphore(value: 0)
        io.perform { ioDone.signal() }
        _ = ioDone.wait(timeout: .now() + 1)
        let main = DispatchSemaphore(value: 0)
        DispatchQueue.main.async { main.signal() }
        while !stopping.load(ordering: .relaxed), main.wait(timeout: .now() + 0.1) == .timedOut {}
    }

    /// Stops the workers, lets every queue drain, reports, and exits (running the inspector's exit
    /// handler, which ends the stream and removes the socket).
    private func finish(_ app: DemoApp) -> Never {
        stopping.store(true, ordering: .relaxed)
        for done in workersDone { _ = done.wait(timeout: .now() + 5) }
        for _ in 0..<3 {
            operations.waitUntilAllOperationsAreFinished()
            background.sync {}
            let ioDone = DispatchSemaphore(value: 0)
            io.perform { ioDone.signal() }
            _ = ioDone.wait(timeout: .now() + 1)
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.02))
        }
        // Async message observers run on the task pool; the truth counts them once they ran.
        let deadline = Date(timeIntervalSinceNow: 5)
        while app.context.asyncMessagesInFlight.load(ordering: .acquiring) > 0, Date() < deadline { usleep(1_000) }
        let truth = app.groundTruth()
        report(truth)
        let viewers = inspector?.viewerCount ?? 0
        say(
            String(
                format: "%.0f posts/s over %.1f s (%d viewer(s) attached at exit)", truth.postsPerSecond,
                truth.elapsedSeconds, viewers))
        exit(0)
    }

    private func report(_ truth: GroundTruth) {
        guard let path = options.truthPath else {
            write(truth.text)
            return
        }
        do {
            try truth.write(to: path)
            say("ground truth written to \(path)")
        } catch {
            say("cannot write \(path): \(error)")
        }
    }

    private func say(_ line: String) {
        write("notify-demo: " + line)
    }

    /// Writes a line to standard output unbuffered, so it is visible at once even through a pipe.
    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
