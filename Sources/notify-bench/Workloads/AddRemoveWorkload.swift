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

    var rowNames: [String] { Layout.allCases.map(\.rowName) }

    func run(_ options: BenchOptions) throws -> [Row] {
        try selectedRows(Layout.allCases, named: \.rowName, options) { layout, name in
            var row = Row(name)
            row.notifyKit = .nanoseconds(try measure(NotifyKitCenter.self, layout))
            row.foundation = .nanoseconds(try measure(FoundationCenter.self, layout))
            if let ratio = row.ratioToFoundation {
                row.expect("≥ 5× faster than Foundation", ratio <= 0.2)
            }
            return row
        }
    }

    /// Median ns per add+remove pair, after checking that the pairs left the center as it was.
    private func measure<Center: BenchCenter>(_: Center.Type, _ layout: Layout) throws -> Double {
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
        let expected = layout == .sameName ? Self.existing : 0
        guard counter.count == expected else {
            throw DeliveryMismatch(
                benchmark: layout.rowName, center: "\(Center.self)",
                detail: "a post after the pairs reached \(counter.count) observers, expected \(expected)")
        }
        withExtendedLifetime(tokens) {}
        return result.nsPerOp
    }
}
