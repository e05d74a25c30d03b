import Foundation
import NotifyKit
import NotifyTracing
import Synchronization
import Tracing

/// What a `NotifyTracingProbe` costs a NotifyKit post with one inline observer, beside an empty
/// probe (the center's own price for building events): inside a request's trace (a post span, a
/// delivery span, the handler run in its span's context) with a tracer that records and counts, as
/// cheap as a real one can be, and with no tracer bootstrapped (swift-distributed-tracing's
/// `NoOpTracer`, which the probe recognises and skips); and outside any trace, where the probe only
/// looks for a context.
struct TracingProbeWorkload: Workload {
    let measurer: Measurer
    let profile: Profile

    static let timeRow = "NotifyTracingProbe ÷ unprobed post, 1 observer, in a trace (counting tracer)"
    static let noOpRow = "NotifyTracingProbe ÷ unprobed post, 1 observer, in a trace (NoOpTracer)"
    static let untracedRow = "NotifyTracingProbe ÷ unprobed post, 1 observer, outside any trace"
    static let allocationRow =
        "allocations per post, NotifyTracingProbe attached, 1 observer, in a trace (counting tracer)"
    /// Two spans (names, contexts, attributes) and two task-local bindings per post, with the
    /// least a recording tracer does: at most this much over the empty probe.
    static let maxAddedNanoseconds = 8_000.0
    /// Outside any trace, or with no tracer, the probe makes no span: what is left is the hook's
    /// own price (the scopes built, the calls through it, a task-local read per post and handler).
    static let maxAddedNanosecondsUntraced = 1_000.0
    static let maxAllocations = 40.0

    static let untracedAllocationRow =
        "allocations per post, NotifyTracingProbe attached, 1 observer, outside any trace"

    var rowNames: [String] {
        [Self.timeRow, Self.noOpRow, Self.untracedRow, Self.allocationRow, Self.untracedAllocationRow]
    }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows: [Row] = []
        if options.selects(Self.timeRow) {
            let tracer = CountingTracer()
            var row = try timeRow(Self.timeRow, tracer, inTrace: true) {
                try tracer.verify(spans: 2 * $0, Self.timeRow)
            }
            row.judgeAdded(limit: Self.maxAddedNanoseconds)
            rows.append(row)
        }
        if options.selects(Self.noOpRow) {
            var row = try timeRow(Self.noOpRow, NoOpTracer(), inTrace: true) { _ in }
            row.judgeAdded(limit: Self.maxAddedNanosecondsUntraced)
            rows.append(row)
        }
        if options.selects(Self.untracedRow) {
            let tracer = CountingTracer()
            var row = try timeRow(Self.untracedRow, tracer, inTrace: false) { _ in
                try tracer.verify(spans: 0, Self.untracedRow)
            }
            row.judgeAdded(limit: Self.maxAddedNanosecondsUntraced)
            rows.append(row)
        }
        if options.selects(Self.allocationRow) { rows.append(try allocationRow()) }
        if options.selects(Self.untracedAllocationRow) { rows.append(try untracedAllocationRow()) }
        return rows
    }

    private func timeRow(
        _ name: String, _ tracer: any Tracer, inTrace: Bool, verify: (_ posts: Int) throws -> Void
    ) throws -> Row {
        progress(name)
        let fixture = PostFixture<NotifyKitCenter>(observers: 1)
        let unprobed = measurer.measure { n in
            for _ in 0..<n { fixture.post() }
        }
        let emptyProbed = probed(fixture, EmptyTracingBenchProbe(), inTrace: inTrace)
        let traced = probed(fixture, NotifyTracingProbe(tracer: tracer), inTrace: inTrace)
        try fixture.verify(posts: unprobed.operations + emptyProbed.operations + traced.operations, name)
        try verify(traced.operations)

        var row = Row(name)
        row.notifyKit = .factorOf(
            traced.nsPerOp / unprobed.nsPerOp, numerator: traced.nsPerOp, denominator: unprobed.nsPerOp)
        // The floor column holds the empty probe's factor, the bar the target is set from.
        row.floor = .factorOf(
            emptyProbed.nsPerOp / unprobed.nsPerOp, numerator: emptyProbed.nsPerOp, denominator: unprobed.nsPerOp)
        return row
    }

    /// Posts with `probe` attached; `inTrace`, inside a request's context, as a server's handler posts.
    private func probed(
        _ fixture: PostFixture<NotifyKitCenter>, _ probe: any NotifyProbe, inTrace: Bool
    ) -> Measurement {
        let attachment = fixture.center.center.attach(probe)
        defer { attachment.detach() }
        guard inTrace else {
            return measurer.measure { n in
                for _ in 0..<n { fixture.post() }
            }
        }
        return ServiceContext.$current.withValue(.topLevel) {
            measurer.measure { n in
                for _ in 0..<n { fixture.post() }
            }
        }
    }

    private func allocationRow() throws -> Row {
        let name = Self.allocationRow
        progress(name)
        let empty = try allocationsPerPost(EmptyTracingBenchProbe(), name)
        let traced = try ServiceContext.$current.withValue(.topLevel) {
            try allocationsPerPost(NotifyTracingProbe(tracer: CountingTracer()), name)
        }
        var row = Row(name)
        row.notifyKit = .allocations(traced)
        row.floor = .allocations(empty)
        row.expectDeterministic(
            "≤ \(Cell.decimal(Self.maxAllocations, places: 0)) beyond an empty probe's (floor column)",
            traced - empty <= Self.maxAllocations)
        return row
    }

    private func untracedAllocationRow() throws -> Row {
        let name = Self.untracedAllocationRow
        progress(name)
        let empty = try allocationsPerPost(EmptyTracingBenchProbe(), name)
        let untraced = try allocationsPerPost(NotifyTracingProbe(tracer: CountingTracer()), name)
        var row = Row(name)
        row.notifyKit = .allocations(untraced)
        row.floor = .allocations(empty)
        row.expectDeterministic("none beyond an empty probe's (floor column)", untraced <= empty)
        return row
    }

    private func allocationsPerPost(_ probe: any NotifyProbe, _ benchmark: String) throws -> Double {
        let fixture = PostFixture<NotifyKitCenter>(observers: 1)
        let attachment = fixture.center.center.attach(probe)
        defer { attachment.detach() }
        return try fixture.allocationsPerPost(profile.allocationPosts, benchmark)
    }
}

extension Row {
    /// Judges the probe's time over the empty probe's (floor column) against `limit` nanoseconds.
    fileprivate mutating func judgeAdded(limit: Double) {
        guard case .factorOf(_, let traced, _) = notifyKit, case .factorOf(_, let empty, _) = floor else { return }
        expect("≤ \(Cell.duration(limit)) over an empty probe's (floor column)", traced - empty <= limit)
    }
}

/// A probe that does nothing: what the center's events cost on their own.
private final class EmptyTracingBenchProbe: NotifyProbe {
    func receive(_ event: ProbeEvent) {}
}

/// A tracer that keeps each span's name and attributes until it ends, then counts it: the least a
/// recording tracer does.
private final class CountingTracer: Tracer {
    let ended = Atomic<Int>(0)
    private let nextID = Atomic<UInt64>(1)

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> CountingSpan {
        var context = context()
        context[CountingSpanKey.self] = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        return CountingSpan(operationName: operationName, context: context, tracer: self)
    }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {}

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {}

    func verify(spans: Int, _ benchmark: String) throws(DeliveryMismatch) {
        let count = ended.load(ordering: .relaxed)
        guard count == spans else {
            throw DeliveryMismatch(
                benchmark: benchmark, center: "NotifyKitCenter", detail: "the tracer ended \(count) of \(spans) spans")
        }
    }
}

private enum CountingSpanKey: ServiceContextKey {
    typealias Value = UInt64
}

private final class CountingSpan: Span {
    let context: ServiceContext
    private let tracer: CountingTracer
    private let state: Mutex<(name: String, attributes: SpanAttributes)>

    init(operationName: String, context: ServiceContext, tracer: CountingTracer) {
        self.context = context
        self.tracer = tracer
        state = Mutex((operationName, [:]))
    }

    var operationName: String {
        get { state.withLock { $0.name } }
        set { state.withLock { $0.name = newValue } }
    }

    var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { $0.attributes = newValue } }
    }

    var isRecording: Bool { true }

    func setStatus(_ status: SpanStatus) {}
    func addEvent(_ event: SpanEvent) {}
    func addLink(_ link: SpanLink) {}
    func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {}

    func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        tracer.ended.add(1, ordering: .relaxed)
    }
}
