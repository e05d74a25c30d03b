import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Benchmark 3: registering a block and removing it again with its token, on a center that
/// already holds 10,000 registrations, either on the same name or on 10,000 other names.
struct AddRemoveWorkload: Workload {
    static let existing = 10_000

    enum Layout: CaseIterable {
        /// The 10,000 are on the name the pair uses.
        case sameName
        /// The 10,000 are on 10,000 other names; the pair's name has no other registration.
        case otherNames

        var rowName: String {
            switch self {
            case .sameName: "add+remove pair, 10k registrations on that name"
            case .otherNames: "add+remove pair, 10k registrations on other names"
            }
        }
    }

    let measurer: Measurer

    /// ≥ 5× faster than Foundation; where the floor is not, within 2× of the floor.
    static let speedTarget = SpeedTarget(factor: 5, floorSlack: 2)

    static let floorPartRows = [
        "add+remove floor part: allocate and free one registration",
        "add+remove floor part: lock and unlock one mutex",
        "add+remove floor part: one tick-counter reading",
    ]

    var rowNames: [String] { Layout.allCases.map(\.rowName) + Self.floorPartRows }

    func run(_ options: BenchOptions) throws -> [Row] {
        let pairs = try selectedRows(Layout.allCases, named: \.rowName, options) { layout, name in
            var row = Row(name)
            Self.speedTarget.judge(
                &row, notifyKit: try measure(NotifyKitCenter.self, layout),
                foundation: try measure(FoundationCenter.self, layout), floor: try measure(AddRemoveFloor.self, layout))
            return row
        }
        return pairs + floorParts(options)
    }

    /// What the floor's pair is made of, each part timed alone: two allocations, two lock pairs and
    /// two clock readings make up most of it.
    private func floorParts(_ options: BenchOptions) -> [Row] {
        let counter = Counter()
        let handler = Handlers.counting(into: counter)
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        defer {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }
        var sink: UInt64 = 0
        let parts: [(String, (Int) -> Void)] = [
            (Self.floorPartRows[0], { n in for _ in 0..<n { sink &+= FloorParts.allocation(handler) } }),
            (Self.floorPartRows[1], { n in for _ in 0..<n { FloorParts.lockPair(mutex) } }),
            (Self.floorPartRows[2], { n in for _ in 0..<n { sink &+= FloorParts.clockReading() } }),
        ]
        var rows: [Row] = []
        for (name, body) in parts where options.selects(name) {
            progress(name)
            var row = Row(name)
            row.floor = .nanoseconds(measurer.measure(maxOpsPerRound: 1 << 30, body).nsPerOp)
            row.target = "reported (floor column)"
            rows.append(row)
        }
        withExtendedLifetime(sink) {}
        return rows
    }

    /// The pairs' median ns and noise, after checking that the pairs left the center as it was.
    private func measure<Center: BenchCenter>(_: Center.Type, _ layout: Layout) throws -> Measurement {
        let center = Center()
        let counter = Counter()
        let existingNames =
            layout == .sameName
            ? Array(repeating: BenchNames.target, count: Self.existing) : BenchNames.others(Self.existing)
        let tokens = existingNames.map { center.add($0, Handlers.counting(into: counter)) }
        let handler = Handlers.counting(into: counter)
        let result = measurer.measure { n in
            for _ in 0..<n {
                let token = center.add(BenchNames.target, handler)
                center.remove(token)
            }
        }
        // Only the pre-existing registrations may still answer a post of the pair's name.
        center.post(BenchNames.target)
        // The floor keeps no names: its post reaches every registration.
        let expected = layout == .sameName || Center.self == AddRemoveFloor.self ? Self.existing : 0
        guard counter.count == expected else {
            throw DeliveryMismatch(
                benchmark: layout.rowName, center: "\(Center.self)",
                detail: "a post after the pairs reached \(counter.count) observers, expected \(expected)")
        }
        withExtendedLifetime(tokens) {}
        return result
    }
}
