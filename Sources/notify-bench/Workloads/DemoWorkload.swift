import Foundation
import NotifyDemo
import NotifyKit
import NotifySystem
import NotifyTraceApp
import NotifyTraceViewer
import NotifyWire

/// The demo's stress scenario: its posts per second with no viewer, and with a viewer attached
/// that drains the socket: a real app watched pays at most a quarter more per post (≤ 1.25×).
struct DemoWorkload: Workload {
    static let bareRow = "demo stress, posts/s, no viewer"
    static let viewedRow = "demo stress, posts/s, viewer attached"
    static let ratioRow = "demo stress, time per post with a viewer ÷ none"

    let profile: Profile

    var rowNames: [String] { [Self.bareRow, Self.viewedRow, Self.ratioRow] }

    func run(_ options: BenchOptions) throws -> [Row] {
        guard rowNames.contains(where: options.selects) else { return [] }
        progress("demo stress scenario, with and without a viewer")
        let steps = profile.name == "quick" ? 20_000 : 100_000
        _ = postsPerSecond(steps: steps / 4, viewer: false)  // warm-up: threads, caches, code paths
        // Alternate, and keep each side's best of three, so a busy moment elsewhere counts less.
        var bare = 0.0
        var viewed = 0.0
        for _ in 0..<3 {
            bare = max(bare, postsPerSecond(steps: steps, viewer: false))
            viewed = max(viewed, postsPerSecond(steps: steps, viewer: true))
        }
        var rows: [Row] = []
        var row = Row(Self.bareRow)
        row.notifyKit = .rate(bare)
        row.target = "reported"
        rows.append(row)
        row = Row(Self.viewedRow)
        row.notifyKit = .rate(viewed)
        row.target = "reported"
        rows.append(row)
        row = Row(Self.ratioRow)
        let factor = bare / max(viewed, 1)
        row.notifyKit = .factor(factor)
        row.expect("≤ 1.25×", factor <= 1.25)
        rows.append(row)
        return rows
    }

    /// Runs the deterministic stress simulation on this thread and returns its posts per second.
    private func postsPerSecond(steps: Int, viewer: Bool) -> Double {
        let center = NotifyCenter(label: "demo-bench")
        let directory = "/tmp/notify-bench-demo-\(getpid())"
        var inspector: NotifyInspector?
        let stop = StopFlag()
        if viewer,
            let started = try? NotifyInspector.start(
                center: center, others: .none, directory: SocketDirectory(path: directory))
        {
            inspector = started
            if let reader = try? TraceReader.connect(socketPath: started.socketPath) {
                let box = UncheckedReader(reader)
                // Reads in batches, as notifytop's reader does.
                Thread.detachNewThread {
                    var events: [TraceEvent] = []
                    events.reserveCapacity(1_024)
                    while !stop.isSet {
                        if case .ended = box.reader.next(appendingTo: &events, limit: 1_024, timeoutMilliseconds: 50) {
                            return
                        }
                        events.removeAll(keepingCapacity: true)
                    }
                }
                while started.viewerCount < 1 { usleep(1_000) }
            }
        }
        let simulation = DemoSimulation(configuration: DemoConfiguration(scenario: .stress, seed: 1), center: center)
        simulation.run(steps: 1_000)
        let before = simulation.groundTruth().posts
        let start = MonotonicClock.now()
        simulation.run(steps: steps)
        let elapsed = MonotonicClock.now() - start
        let posts = simulation.groundTruth().posts - before
        stop.set()
        inspector?.stop()
        rmdir(directory)
        return Double(posts) * 1e9 / Double(max(elapsed, 1))
    }
}

private final class StopFlag: @unchecked Sendable {  // `lock` guards `value`
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
