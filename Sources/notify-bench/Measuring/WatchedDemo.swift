import Foundation
import NotifyDemo
import NotifyKit
import NotifySystem
import NotifyTraceApp

/// The demo's stress scenario on this thread, behind a real inspector and socket, with the
/// dashboard (``DashboardProcess``) attached: what the dashboard workloads drive.
enum WatchedDemo {
    /// Starts the demo and the dashboard, waits (at most 30 s) for the dashboard to attach, then lets
    /// `drive` run the simulation while `watching()` holds (the dashboard runs, within the 30 s);
    /// returns what `drive` returned and what the dashboard measured.
    static func run<Driven>(
        label: String, warmUpFrames: Int, measuredFrames: Int,
        drive: (_ simulation: DemoSimulation, _ watching: () -> Bool) throws -> Driven
    ) throws -> (driven: Driven, dashboard: DashboardChild.Result) {
        let center = NotifyCenter(label: "\(label)-bench")
        let directory = "/tmp/notify-bench-\(label)-\(getpid())"
        let inspector = try NotifyInspector.start(
            center: center, others: .none, directory: SocketDirectory(path: directory))
        defer {
            inspector.stop()
            rmdir(directory)
        }
        let simulation = DemoSimulation(configuration: DemoConfiguration(scenario: .stress, seed: 1), center: center)
        let dashboard = try DashboardProcess(
            socket: inspector.socketPath, warmUpFrames: warmUpFrames, measuredFrames: measuredFrames)
        defer { dashboard.terminate() }
        let deadline = MonotonicClock.now() + 30_000_000_000
        while inspector.viewerCount < 1 && dashboard.isRunning && MonotonicClock.now() < deadline { usleep(1_000) }
        let driven = try drive(simulation) { dashboard.isRunning && MonotonicClock.now() < deadline }
        return (driven, try dashboard.wait())
    }
}
