import Foundation

/// Benchmark 7: heap bytes per block registration, with 100,000 registrations on one name or on
/// 100,000 distinct names, measured as the growth of ``HeapUsage`` while registering.
///
/// Everything that is not the center's is made before the baseline, identically for both centers:
/// the names, one handler per registration (each with its own context box, capturing one shared
/// counter), and the token array, reserved to its full size; so the array's 8 B per token is
/// excluded from both centers alike. The tokens themselves are counted: each center allocates its own.
///
/// The handlers are kept in ``StoredHandler`` values, not in a `[Handler]`: an array of closures
/// stores them reabstracted, and taking one out to pass it on allocates a thunk context (48 B)
/// inside the measurement, which both centers would then keep.
struct MemoryWorkload: Workload {
    static let registrations = 100_000
    static let targetRatio = 1.0

    enum Layout: CaseIterable {
        case oneName, distinctNames

        var rowName: String {
            switch self {
            case .oneName: "memory per registration, 100k on one name"
            case .distinctNames: "memory per registration, 100k distinct names"
            }
        }
    }

    let profile: Profile

    var rowNames: [String] { Layout.allCases.map(\.rowName) }

    func run(_ options: BenchOptions) throws -> [Row] {
        try selectedRows(Layout.allCases, named: \.rowName, options) { layout, name in
            var row = Row(name)
            guard HeapUsage.selfCheck() else {
                row.target = "mallinfo2 unavailable or inconsistent here"
                return row
            }
            row.notifyKit = .bytes(try median(NotifyKitCenter.self, layout))
            row.foundation = .bytes(try median(FoundationCenter.self, layout))
            if let ratio = row.ratioToFoundation {
                row.expect("≤ Foundation", ratio <= Self.targetRatio)
            }
            return row
        }
    }

    private func median<Center: BenchCenter>(_: Center.Type, _ layout: Layout) throws -> Double {
        try (0..<profile.memoryRepetitions).map { _ in try bytesPerRegistration(Center.self, layout) }.median
    }

    private func bytesPerRegistration<Center: BenchCenter>(_: Center.Type, _ layout: Layout) throws -> Double {
        let count = Self.registrations
        let names = layout == .oneName ? [BenchNames.target] : BenchNames.others(count)
        let counter = Counter()
        let handlers = (0..<count).map { _ in StoredHandler(handler: Handlers.counting(into: counter)) }
        var tokens: [AnyObject] = []
        tokens.reserveCapacity(count)
        let center = Center()
        // One registration made and removed first, so one-time lazy state is not charged per registration.
        center.remove(center.add(BenchNames.target, handlers[0].handler))

        let before = HeapUsage.bytesInUse() ?? 0
        for index in 0..<count {
            tokens.append(center.add(names[layout == .oneName ? 0 : index], handlers[index].handler))
        }
        let after = HeapUsage.bytesInUse() ?? 0
        // Nothing made before the baseline may be freed before this second reading (Swift may end a
        // value's lifetime at its last use): a freed 1.6 MB handler array would hide 16 B per registration.
        withExtendedLifetime(handlers) {}

        // Every registration must be live: post each name once.
        for name in names { center.post(name) }
        guard counter.count == count else {
            throw DeliveryMismatch(
                benchmark: layout.rowName, center: "\(Center.self)",
                detail: "\(counter.count) of \(count) registrations answered a post")
        }
        for token in tokens { center.remove(token) }
        return Double(after - before) / Double(count)
    }
}

/// A handler held at its own abstraction, so reading it back allocates nothing.
struct StoredHandler {
    let handler: Handler
}
