import Foundation
import NotifyFoundationProbe
import NotifySystem

/// What `notifytop --foundation`'s counting mode costs Foundation's own post, as probed ÷ unprobed
/// in one run, beside the floor: the same three probes only counting (the traps alone). Needs what
/// ``FoundationProbeWorkload`` needs; without it the rows say why.
///
/// Targets: at one observer the counting mode costs at most ``maxFactor`` times the unprobed post;
/// at ten, at most N + 2 traps per post (the count, as the event mode's row).
struct FoundationCountingWorkload: Workload {
    static let observerCounts = [1, 10]
    static let maxFactor = 10.0

    let measurer: Measurer

    static func rowName(observers: Int) -> String {
        "--foundation counting ÷ unprobed Foundation post, \(observers) observer\(observers == 1 ? "" : "s")"
    }
    static let floorName = "count-only probes (the floor) ÷ unprobed Foundation post, 1 observer"

    var rowNames: [String] { Self.observerCounts.map(Self.rowName) + [Self.floorName] }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows = try selectedRows(Self.observerCounts, named: Self.rowName, options) { observers, name in
            try FoundationProbeWorkload.measure(name, observers: observers, measurer: measurer) {
                () throws(FoundationAttachError) in
                let session = try FoundationProbeSession(pid: getpid(), mode: .counting)
                let drained = Drain(session.stream)
                return {
                    session.stop()
                    return drained.finish() > 0
                }
            } judge: { row, factor in
                let traps = ProbeProgram.trapsPerPost(observers: observers, deliveryEnd: .nextDeliveryOrPostReturn)
                row.floor = .countOf(UInt64(traps), conditions: "uprobe traps per post")
                if observers == 1 {
                    row.expect("≤ \(Int(Self.maxFactor))× unprobed", factor <= Self.maxFactor)
                } else {
                    let most = FoundationProbeWorkload.maxTraps(observers: observers)
                    row.expectDeterministic("≤ \(most) traps per post", traps <= most)
                }
            }
        }
        if options.selects(Self.floorName) {
            rows.append(
                try FoundationProbeWorkload.measure(Self.floorName, observers: 1, measurer: measurer) {
                    () throws(FoundationAttachError) in
                    let probes = try CountOnlyProbes(pid: getpid())
                    return {
                        probes.stop()
                        return true
                    }
                } judge: { row, _ in
                    row.floor = .countOf(3, conditions: "uprobe traps per post")
                    row.target = "information: the traps alone"
                })
        }
        return rows
    }
}
