import Foundation
import NotifyKit

/// What the always-on history costs the paths besides the post (whose rows are
/// ``UnwatchedCountingWorkload``'s): an add and a removal (each change of a (name, callsite) pair's
/// live count is logged with its time) and a checkpoint (remembered for a late viewer). Each row
/// times rounds with the center's history on and off in turns, on one center in one run.
struct HistoryCostWorkload: Workload {
    static let addRow = "history cost: add, site count log on vs off (10k registrations on the name)"
    static let removeRow = "history cost: remove, site count log on vs off (10k registrations on the name)"
    static let checkpointRow = "history cost: checkpoint, remembered vs not"
    /// Registrations added, then removed newest first, per timed batch.
    static let batch = 1_000
    /// The most the history may add to an add or a removal: its log entry and one tick-counter reading.
    static let changeLimit = 20.0
    /// The most remembering may add to a checkpoint: one more lock and a copy of the label.
    static let checkpointLimit = 100.0

    let measurer: Measurer
    let profile: Profile

    var rowNames: [String] { [Self.addRow, Self.removeRow, Self.checkpointRow] }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows: [Row] = []
        if options.selects(Self.addRow) || options.selects(Self.removeRow) {
            progress("history cost: add and remove")
            let (add, remove) = try addAndRemove()
            if options.selects(Self.addRow) { rows.append(add.row(Self.addRow, limit: Self.changeLimit)) }
            if options.selects(Self.removeRow) {
                rows.append(remove.row(Self.removeRow, limit: Self.changeLimit))
            }
        }
        if options.selects(Self.checkpointRow) {
            progress(Self.checkpointRow)
            rows.append(checkpoints().row(Self.checkpointRow, limit: Self.checkpointLimit))
        }
        return rows
    }

    /// On/off pairs of rounds timed.
    private var pairs: Int { 4 * profile.rounds + 1 }

    /// Batches of adds, then their removals newest first, on a name with 10k registrations, with
    /// the history on and off in turns.
    private func addAndRemove() throws -> (add: Alternation, remove: Alternation) {
        let center = NotifyCenter(label: "bench")
        let counter = Counter()
        let handler = Handlers.counting(into: counter)
        let existing = (0..<AddRemoveWorkload.existing).map { _ in
            center.addObserver(forName: BenchNames.target, object: nil, queue: nil, using: handler)
        }
        var tokens: [NotifyToken] = []
        tokens.reserveCapacity(Self.batch)
        func round(history: Bool) -> (add: Double, remove: Double) {
            center.keepsHistory = history
            let start = MonotonicClock.now()
            for _ in 0..<Self.batch {
                tokens.append(center.addObserver(forName: BenchNames.target, object: nil, queue: nil, using: handler))
            }
            let added = MonotonicClock.now()
            while let token = tokens.popLast() { center.removeObserver(token) }
            let removed = MonotonicClock.now()
            return (Double(added &- start) / Double(Self.batch), Double(removed &- added) / Double(Self.batch))
        }
        for _ in 0..<20 { _ = round(history: true) }
        var add = Alternation()
        var remove = Alternation()
        for pair in 0..<pairs * 4 {
            let on: (add: Double, remove: Double)
            let off: (add: Double, remove: Double)
            if pair % 2 == 0 {
                off = round(history: false)
                on = round(history: true)
            } else {
                on = round(history: true)
                off = round(history: false)
            }
            add.add(on: on.add, off: off.add)
            remove.add(on: on.remove, off: off.remove)
        }
        center.keepsHistory = true
        center.post(name: BenchNames.target)
        guard counter.count == existing.count else {
            throw DeliveryMismatch(
                benchmark: Self.addRow, center: "NotifyKitCenter",
                detail: "a post after the batches reached \(counter.count) observers, expected \(existing.count)")
        }
        withExtendedLifetime(existing) {}
        return (add, remove)
    }

    /// Checkpoints with the history on and off in turns.
    private func checkpoints() -> Alternation {
        let center = NotifyCenter(label: "bench")
        let label = "a screen closed, long enough to be kept out of line"
        let calibration = measurer.measure { n in
            for _ in 0..<n { center.checkpoint(label) }
        }
        let n = max(1, Int(Double(profile.roundNanos) / max(calibration.nsPerOp, 0.1)))
        func round(history: Bool) -> Double {
            center.keepsHistory = history
            let start = MonotonicClock.now()
            for _ in 0..<n { center.checkpoint(label) }
            return Double(MonotonicClock.now() &- start) / Double(n)
        }
        var alternation = Alternation()
        for pair in 0..<pairs {
            if pair % 2 == 0 {
                let off = round(history: false)
                alternation.add(on: round(history: true), off: off)
            } else {
                let on = round(history: true)
                alternation.add(on: on, off: round(history: false))
            }
        }
        center.keepsHistory = true
        return alternation
    }
}
