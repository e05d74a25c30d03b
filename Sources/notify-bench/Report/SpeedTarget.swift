/// A speed-up over Foundation, judged in one run against Foundation, the floor and the run's noise.
///
/// The target is met when NotifyKit is `factor` times faster than Foundation. When even the floor
/// (the least any center can do, measured in the same run) is not that much faster, the row says
/// so. CI's gate (`--speed-gate`) holds NotifyKit to the target or to the floor's own speed-up
/// within `floorSlack`, whichever is lower, and fails only when the speed-up falls below that by
/// more than the run's noise on the ratio: Foundation's time moves from run to run far more than
/// a run's noise shows (an add+remove among 10k other names: 0.99 to 1.35 µs in three runs on one
/// machine), NotifyKit's and the floor's much less, so NotifyKit within its slack of the floor is
/// no regression whatever Foundation did in that run.
struct SpeedTarget {
    let factor: Double
    /// How many times the floor's time NotifyKit may take when the floor misses `factor`.
    let floorSlack: Double

    var text: String { "≥ \(Cell.decimal(factor, places: 0))× faster than Foundation" }

    /// Fills the row's cells and verdict from the three measurements.
    func judge(_ row: inout Row, notifyKit: Measurement, foundation: Measurement, floor: Measurement?) {
        row.notifyKit = .nanoseconds(notifyKit.nsPerOp)
        row.foundation = .nanoseconds(foundation.nsPerOp)
        if let floor { row.floor = .nanoseconds(floor.nsPerOp) }
        let speedUp = foundation.nsPerOp / max(notifyKit.nsPerOp, 0.001)
        let noise = notifyKit.noise + foundation.noise
        row.noise = noise
        var heldTo = factor
        if let floor {
            let floorSpeedUp = foundation.nsPerOp / max(floor.nsPerOp, 0.001)
            heldTo = min(factor, floorSpeedUp / floorSlack)
            if floorSpeedUp < factor {
                row.floorNote =
                    "the floor (\(Cell.duration(floor.nsPerOp))) is only \(Cell.decimal(floorSpeedUp, places: 1))× "
                    + "faster than Foundation (\(Cell.duration(foundation.nsPerOp))); NotifyKit is "
                    + "\(Cell.decimal(notifyKit.nsPerOp / floor.nsPerOp, places: 2))× the floor's time "
                    + "(held to ≤ \(Cell.decimal(floorSlack, places: 2))×)"
            }
        }
        row.expect(text, speedUp >= factor)
        row.speedGateMissed = speedUp < heldTo * (1 - noise)
        row.speedGateText =
            "\(Cell.decimal(speedUp, places: 2))× against ≥ \(Cell.decimal(heldTo, places: 2))× "
            + "less the run's noise (\(Cell.decimal(noise * 100, places: 0))%)"
    }
}
