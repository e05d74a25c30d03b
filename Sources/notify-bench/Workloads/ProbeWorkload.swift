import NotifyKit

/// Benchmark 6: what an attached `InMemoryProbe` costs a NotifyKit post, as probed ÷ unprobed.
/// The probe keeps every event, so rounds are capped and the probe is reset before each one.
struct ProbeWorkload: Workload {
    static let observerCounts = [1, 10]
    static let maxFactor = 2.0
    /// Events a probed round may accumulate (one per post plus one per delivery).
    static let eventsPerRound = 50_000

    let measurer: Measurer

    static func rowName(observers: Int) -> String {
        "InMemoryProbe ÷ unprobed post, \(observers) observer\(observers == 1 ? "" : "s")"
    }

    var rowNames: [String] { Self.observerCounts.map(Self.rowName) }

    func run(_ options: BenchOptions) throws -> [Row] {
        try selectedRows(Self.observerCounts, named: Self.rowName, options) { observers, name in
            let fixture = PostFixture<NotifyKitCenter>(observers: observers)
            let unprobed = measurer.measure { n in
                for _ in 0..<n { fixture.post() }
            }
            try fixture.verify(posts: unprobed.operations, name)
            fixture.reset()

            let probe = InMemoryProbe()
            let attachment = fixture.center.center.attach(probe)
            let probed = measurer.measure(
                maxOpsPerRound: Self.eventsPerRound / (observers + 1), beforeEachRound: probe.reset
            ) { n in
                for _ in 0..<n { fixture.post() }
            }
            let lastRoundEvents = probe.events.count
            attachment.detach()
            probe.reset()
            try fixture.verify(posts: probed.operations, name)
            guard lastRoundEvents > 0 else {
                throw DeliveryMismatch(benchmark: name, center: "NotifyKitCenter", detail: "the probe saw no events")
            }

            var row = Row(name)
            let factor = probed.nsPerOp / unprobed.nsPerOp
            row.notifyKit = .factorOf(factor, numerator: probed.nsPerOp, denominator: unprobed.nsPerOp)
            row.expect("≤ \(Cell.decimal(Self.maxFactor, places: 0))×", factor <= Self.maxFactor)
            return row
        }
    }
}
