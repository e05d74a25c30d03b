import Foundation
import NotifyFoundationProbe
import NotifySystem

/// What `notifytop --foundation`'s counting mode costs Foundation's own post, as probed ÷ unprobed
/// in one run, beside the floor: the same three probes only counting (the traps alone). Needs what
/// ``FoundationProbeWorkload`` needs; without it the rows say why.
///
/// Targets: at one observer the counting mode costs at most ``maxFactor`` times the unprobed post,
/// or, where the traps alone cost more than ``maxFactor`` ÷ ``floorSlack`` (a trap's price is the
/// machine's), at most ``floorSlack`` times the floor's probed post measured in the same run; at
/// ten, at most N + 2 traps per post (the count, as the event mode's row).
struct FoundationCountingWorkload: Workload {
    static let observerCounts = [1, 10]
    static let maxFactor = 10.0
    static let floorSlack = 1.5

    let measurer: Measurer

    static func rowName(observers: Int) -> String {
        "--foundation counting ÷ unprobed Foundation post, \(observers) observer\(observers == 1 ? "" : "s")"
    }
    static let floorName = "count-only probes (the floor) ÷ unprobed Foundation post, 1 observer"

    var rowNames: [String] { [Self.floorName] + Self.observerCounts.map(Self.rowName) }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows: [Row] = []
        // The floor first: the one-observer row is judged against it.
        var floor: (factor: Double, nanoseconds: Double)?
        if options.selects(Self.floorName) || options.selects(Self.rowName(observers: 1)) {
            let row = try FoundationProbeWorkload.measure(Self.floorName, observers: 1, measurer: measurer) {
                () throws(FoundationAttachError) in
                let probes = try CountOnlyProbes(pid: getpid())
                return {
                    probes.stop()
                    return true
                }
            } judge: { row, factor, nanoseconds in
                row.floor = .countOf(3, conditions: "uprobe traps per post")
                row.target = "information: the traps alone"
                floor = (factor, nanoseconds)
            }
            if options.selects(Self.floorName) { rows.append(row) }
        }
        rows += try selectedRows(Self.observerCounts, named: Self.rowName, options) { observers, name in
            try FoundationProbeWorkload.measure(name, observers: observers, measurer: measurer) {
                () throws(FoundationAttachError) in
                let session = try FoundationProbeSession(pid: getpid(), mode: .counting)
                let drained = Drain(session.stream)
                return {
                    session.stop()
                    return drained.finish() > 0
                }
            } judge: { row, factor, nanoseconds in
                let traps = ProbeProgram.trapsPerPost(observers: observers, deliveryEnd: .nextDeliveryOrPostReturn)
                row.floor = .countOf(UInt64(traps), conditions: "uprobe traps per post")
                if observers == 1 {
                    Self.judge(&row, factor: factor, nanoseconds: nanoseconds, floor: floor)
                } else {
                    let most = FoundationProbeWorkload.maxTraps(observers: observers)
                    row.expectDeterministic("≤ \(most) traps per post", traps <= most)
                }
            }
        }
        return rows
    }

    /// ≤ ``maxFactor``× unprobed; where the floor's traps alone pass ``maxFactor`` ÷ ``floorSlack``,
    /// ≤ ``floorSlack``× the floor's probed post instead, said in the target.
    static func judge(
        _ row: inout Row, factor: Double, nanoseconds: Double, floor: (factor: Double, nanoseconds: Double)?
    ) {
        guard let floor, floor.factor * floorSlack > maxFactor, floor.nanoseconds > 0 else {
            row.expect("≤ \(Int(maxFactor))× unprobed", factor <= maxFactor)
            return
        }
        let overFloor = nanoseconds / floor.nanoseconds
        row.expect(
            "≤ \(Int(maxFactor))× unprobed; the traps alone cost \(String(format: "%.2f", floor.factor))× here, "
                + "so ≤ \(floorSlack)× the floor (\(String(format: "%.2f", overFloor))×)",
            overFloor <= floorSlack)
    }
}
