import Foundation
import NotifyDemo
import NotifyKit
import Synchronization

/// notifytop's own cost under load: the dashboard (``DashboardChild``, a process of its own on a
/// pseudo-terminal) attached to the demo's stress workload, which runs here, behind a real
/// inspector and socket. Paced at 100k events/s, the row is the dashboard's CPU at 10 frames/s;
/// unpaced (the demo's highest rate), it is the events the dashboard lost.
struct DashboardLoadWorkload: Workload {
    static let cpuRow = "dashboard CPU at 100k events/s, 10 frames/s"
    static let lossRow = "demo at its highest rate: events lost by the dashboard"
    static let pacedRate = 100_000.0
    static let cpuTarget = 10.0
    static let trials = 3

    let profile: Profile

    var rowNames: [String] { [Self.cpuRow, Self.lossRow] }

    private var quick: Bool { profile.name == "quick" }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows: [Row] = []
        if options.selects(Self.cpuRow) {
            progress(Self.cpuRow)
            let (result, trials) = try Self.measure { () throws -> DashboardChild.Result in
                try DemoProducer.measure(
                    eventsPerSecond: Self.pacedRate, warmUpFrames: 10, measuredFrames: quick ? 20 : 60)
            } done: {
                !$0.disturbed
            }
            var row = Row(Self.cpuRow)
            row.notifyKit = .percentOf(result.cpuPercent, conditions: Self.conditions(result, trials: trials))
            row.expect("≤ \(Cell.decimal(Self.cpuTarget, places: 0))% of a core", result.cpuPercent <= Self.cpuTarget)
            if result.disturbed { row.markInconclusive() }
            rows.append(row)
        }
        if options.selects(Self.lossRow) {
            progress(Self.lossRow)
            let (result, trials) = try Self.measure { () throws -> DashboardChild.Result in
                try DemoProducer.measure(eventsPerSecond: nil, warmUpFrames: 10, measuredFrames: quick ? 20 : 50)
            } done: {
                $0.eventsLostBehind == 0 || !$0.disturbed
            }
            var row = Row(Self.lossRow)
            var notes = Self.conditions(result, trials: trials)
            let dropped = result.eventsLost - result.eventsLostBehind
            if dropped > 0 { notes += ", and \(dropped) dropped in the app before its exporter sent them" }
            row.notifyKit = .countOf(result.eventsLostBehind, conditions: notes)
            row.expect("0", result.eventsLostBehind == 0)
            if result.eventsLostBehind > 0 && result.disturbed { row.markInconclusive() }
            rows.append(row)
        }
        return rows
    }

    /// Runs `trial` until `done` accepts a result, at most ``trials`` times; returns the last
    /// result and how many trials it took. Another process taking the CPUs (a build elsewhere on
    /// this shared machine) is what makes a trial worth repeating.
    static func measure(
        _ trial: () throws -> DashboardChild.Result, done: (DashboardChild.Result) -> Bool
    ) throws -> (DashboardChild.Result, Int) {
        var result = try trial()
        var count = 1
        while !done(result) && count < trials {
            result = try trial()
            count += 1
        }
        return (result, count)
    }

    static func conditions(_ result: DashboardChild.Result, trials: Int) -> String {
        let events = Cell.decimal(result.eventsPerSecond / 1_000, places: 0)
        let frames = Cell.decimal(result.framesPerSecond, places: 1)
        var text = "\(events)k events/s, \(frames) frames/s"
        if !result.curses { text += ", in-memory terminal" }
        if trials > 1 { text += ", trial \(trials) of \(Self.trials)" }
        if result.disturbed {
            let share = Double(result.waitNanoseconds) / Double(max(result.wallNanoseconds, 1)) * 100
            text += ", waited \(Cell.decimal(share, places: 0))% of the time for a CPU"
        }
        return text
    }
}

/// The demo's stress scenario on this thread, behind an inspector, paced to a number of trace
/// events per second (or as fast as it goes), while a dashboard child watches.
enum DemoProducer {
    static func measure(eventsPerSecond: Double?, warmUpFrames: Int, measuredFrames: Int) throws
        -> DashboardChild.Result
    {
        try WatchedDemo.run(label: "dashboard", warmUpFrames: warmUpFrames, measuredFrames: measuredFrames) {
            simulation, watching in
            // Paced by the demo's own tallies (a post and each handler run it causes are the events),
            // read every few steps: a probe counting events would add its own cost to every post.
            let start = MonotonicClock.now()
            let startEvents = Self.events(simulation)
            var events = 0
            while watching() {
                if let eventsPerSecond {
                    let allowed = Double(MonotonicClock.now() - start) * eventsPerSecond / 1e9
                    if Double(events) >= allowed {
                        usleep(500)
                        continue
                    }
                    simulation.run(steps: 16)
                    events = Self.events(simulation) - startEvents
                } else {
                    simulation.run(steps: 256)
                }
            }
        }.dashboard
    }

    private static func events(_ simulation: DemoSimulation) -> Int {
        let tallied = simulation.tallied
        return Int(Double(tallied.posts + tallied.deliveries) * eventsPerTallied)
    }

    /// Trace events per post and handler run the demo tallies (registrations, removals and queue
    /// activity are events too): the simulation is deterministic, so a twin run counts them once.
    private static let eventsPerTallied: Double = {
        let center = NotifyCenter(label: "dashboard-bench-calibration")
        let counter = EventCounter()
        let attachment = center.attach(counter)
        defer { attachment.detach() }
        let simulation = DemoSimulation(configuration: DemoConfiguration(scenario: .stress, seed: 1), center: center)
        simulation.run(steps: 20_000)
        let tallied = simulation.tallied
        return Double(counter.count) / Double(max(1, tallied.posts + tallied.deliveries))
    }()
}

/// Counts the center's events.
private final class EventCounter: NotifyProbe {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func receive(_ event: ProbeEvent) { value.add(1, ordering: .relaxed) }
}
