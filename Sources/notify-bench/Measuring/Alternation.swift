/// Rounds timed with a feature on and off in turns, on one center in one run, so both sides see
/// the same machine and drift cancels: the feature's cost is the median of the per-pair differences.
struct Alternation {
    var with: [Double] = []
    var without: [Double] = []
    var differences: [Double] = []

    mutating func add(on: Double, off: Double) {
        with.append(on)
        without.append(off)
        differences.append(on - off)
    }

    var added: Double { differences.median }

    /// The standard error of ``added``: the differences' spread as a normal σ (interquartile
    /// range ÷ 1.349) × 1.2533 ÷ √n, the median's error over n pairs.
    var standardError: Double {
        guard differences.count > 1 else { return 0 }
        let sorted = differences.sorted()
        let interquartile = sorted[(3 * sorted.count) / 4] - sorted[sorted.count / 4]
        return interquartile / 1.349 * 1.2533 / Double(sorted.count).squareRoot()
    }

    /// A row with the cost (± its standard error) and both sides; judged against `limit`: met when
    /// the cost is within it, missed when it exceeds it by more than twice its error, and not
    /// judged in between, where the run cannot tell a cost over the limit from its own noise.
    func row(_ name: String, limit: Double) -> Row {
        judged(name, limit: limit, target: "≤ \(Cell.decimal(limit, places: 0)) ns added")
    }

    /// A row judged against `limit` ns or `fraction` of the time without the feature in this run,
    /// whichever is larger: a cost that scales with the path it is added to.
    func row(_ name: String, limit: Double, orFractionOfWithout fraction: Double) -> Row {
        let scaled = fraction * without.median
        let percent = Cell.decimal(fraction * 100, places: 0)
        let target =
            "≤ \(Cell.decimal(limit, places: 0)) ns or ≤ \(percent)% of the path "
            + "(\(Cell.decimal(scaled, places: 1)) ns) added"
        return judged(name, limit: max(limit, scaled), target: target)
    }

    private func judged(_ name: String, limit: Double, target: String) -> Row {
        var row = Row(name)
        row.notifyKit = .addedTo(added, error: standardError, with: with.median, without: without.median)
        row.expect(target, added <= limit)
        if added > limit, added - 2 * standardError <= limit { row.markInconclusive() }
        return row
    }
}
