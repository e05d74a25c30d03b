/// The three things measured side by side.
enum Column {
    case notifyKit, foundation, floor
}

/// One measured value, formatted with its unit.
enum Cell {
    case none
    case nanoseconds(Double)
    case allocations(Double)
    case bytes(Double)
    /// A ratio of two measurements, such as a speed-up.
    case factor(Double)
    /// Events per second.
    case rate(Double)
    /// A ratio with the measurements it came from.
    case factorOf(Double, numerator: Double, denominator: Double)
    /// What a change adds to a duration, with the durations with and without it.
    case addedTo(Double, error: Double, with: Double, without: Double)
    /// Percent of one core, with the conditions it was measured under.
    case percentOf(Double, conditions: String)
    /// A count of things, with the conditions it was measured under.
    case countOf(UInt64, conditions: String)
    /// The longest and the 99th percentile of some durations, with the conditions they were measured under.
    case latency(max: Double, p99: Double, conditions: String)

    var text: String {
        switch self {
        case .none: "–"
        case .nanoseconds(let ns): Self.duration(ns)
        case .allocations(let count): Self.decimal(count, places: 2)
        case .bytes(let bytes): "\(Self.decimal(bytes, places: 0)) B"
        case .factor(let factor): "\(Self.decimal(factor, places: 2))×"
        case .rate(let perSecond): "\(Self.decimal(perSecond / 1e6, places: 2))M/s"
        case .factorOf(let factor, let numerator, let denominator):
            "\(Self.decimal(factor, places: 2))× (\(Self.duration(numerator)) / \(Self.duration(denominator)))"
        case .addedTo(let added, let error, let with, let without):
            "\(added < 0 ? "" : "+")\(Self.duration(added)) ±\(Self.duration(error)) (\(Self.duration(with)) / \(Self.duration(without)))"
        case .percentOf(let percent, let conditions): "\(Self.decimal(percent, places: 1))% (\(conditions))"
        case .countOf(let count, let conditions): "\(count) (\(conditions))"
        case .latency(let max, let p99, let conditions):
            "max \(Self.duration(max)), p99 \(Self.duration(p99)) (\(conditions))"
        }
    }

    /// The value, when it is a plain measurement that can be compared with another column's.
    var measurement: Double? {
        switch self {
        case .nanoseconds(let value), .allocations(let value), .bytes(let value): value
        case .none, .factor, .factorOf, .addedTo, .rate, .percentOf, .countOf, .latency: nil
        }
    }

    static func duration(_ ns: Double) -> String {
        switch ns {
        case ..<1_000: "\(decimal(ns, places: 1)) ns"
        case ..<1_000_000: "\(decimal(ns / 1_000, places: 2)) µs"
        default: "\(decimal(ns / 1_000_000, places: 2)) ms"
        }
    }

    static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = String(scaled / Int(scale))
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard places > 0 else { return sign + whole }
        let fraction = String(scaled % Int(scale))
        return sign + whole + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}

/// One line of the report.
struct Row {
    var benchmark: String
    var notifyKit = Cell.none
    var foundation = Cell.none
    var floor = Cell.none
    /// What NotifyKit (or the row's subject) should reach; "–" for rows reported for information.
    var target = "–"
    var passed: Bool?

    init(_ benchmark: String) {
        self.benchmark = benchmark
    }

    subscript(column: Column) -> Cell {
        get {
            switch column {
            case .notifyKit: notifyKit
            case .foundation: foundation
            case .floor: floor
            }
        }
        set {
            switch column {
            case .notifyKit: notifyKit = newValue
            case .foundation: foundation = newValue
            case .floor: floor = newValue
            }
        }
    }

    /// NotifyKit's value divided by Foundation's, when both are plain measurements.
    var ratioToFoundation: Double? {
        guard let mine = notifyKit.measurement, let theirs = foundation.measurement, theirs > 0 else { return nil }
        return mine / theirs
    }

    /// Set when the measurement could not be trusted to judge the target.
    var inconclusive = false

    /// The run's noise on the ratio to Foundation (the two sides' relative spreads, added).
    var noise: Double?
    /// Why the target cannot be met here: what the floor measured in the same run allows.
    var floorNote: String?
    /// Set for rows with a ``SpeedTarget``: whether the speed-up fell below what the run holds it to
    /// by more than the run's noise (fatal with `--speed-gate`), and the figures that say so.
    var speedGateMissed: Bool?
    var speedGateText: String?

    /// Set when the measurement does not depend on the machine's load (a count, not a time), so a
    /// missed target fails the run.
    private(set) var isDeterministic = false

    /// Sets the target and whether it was met.
    mutating func expect(_ target: String, _ passed: Bool) {
        self.target = target
        self.passed = passed
    }

    /// Sets a target that the machine's load cannot move, such as an allocation count: missing it
    /// fails the run.
    mutating func expectDeterministic(_ target: String, _ passed: Bool) {
        expect(target, passed)
        isDeterministic = true
    }

    /// A throughput row judged against a floor in events per second, such as "≥ 1M/s".
    static func rate(_ benchmark: String, _ perSecond: Double, atLeast minimum: Double) -> Row {
        var row = Row(benchmark)
        row.notifyKit = .rate(perSecond)
        row.expect("≥ \(Cell.decimal(minimum / 1e6, places: 0))M/s", perSecond >= minimum)
        return row
    }

    /// Keeps the target but judges nothing: the machine did not give the measurement the CPUs it needed.
    mutating func markInconclusive() {
        inconclusive = true
        passed = nil
    }
}
