import Foundation
import NotifyFoundationProbe
import NotifySystem

/// What `notifytop --foundation`'s probes cost Foundation's own post, as probed ÷ unprobed in one
/// run: the benchmark attaches bpftrace to itself and drains the stream as a viewer would. Needs
/// root (or CAP_BPF and CAP_PERFMON), bpftrace and tracefs; without them the row says why.
///
/// The floor column is the uprobe traps a post costs (each about 3 µs on a virtual machine): the
/// row's target. The variant that times each delivery with a return probe of its own (two traps
/// per delivery) is measured beside it for information.
struct FoundationProbeWorkload: Workload {
    static let observerCounts = [1, 10]
    static let variants: [ProbeProgram.DeliveryEnd] = [.nextDeliveryOrPostReturn, .closureReturn]

    let measurer: Measurer

    static func rowName(observers: Int, variant: ProbeProgram.DeliveryEnd = .nextDeliveryOrPostReturn) -> String {
        "--foundation probes ÷ unprobed Foundation post, \(observers) observer\(observers == 1 ? "" : "s")"
            + (variant == .closureReturn ? " (each delivery's return probed)" : "")
    }

    var rowNames: [String] {
        Self.variants.flatMap { variant in Self.observerCounts.map { Self.rowName(observers: $0, variant: variant) } }
    }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows: [Row] = []
        for variant in Self.variants {
            let names = { (observers: Int) in Self.rowName(observers: observers, variant: variant) }
            try rows.append(
                contentsOf: selectedRows(Self.observerCounts, named: names, options) { observers, name in
                    try Self.measure(name, observers: observers, measurer: measurer) {
                        () throws(FoundationAttachError) in
                        let session = try FoundationProbeSession(pid: getpid(), deliveryEnd: variant)
                        let drained = Drain(session.stream)
                        return {
                            session.stop()
                            return drained.finish() > 0
                        }
                    } judge: { row, _, _ in
                        let traps = ProbeProgram.trapsPerPost(observers: observers, deliveryEnd: variant)
                        row.floor = .countOf(UInt64(traps), conditions: "uprobe traps per post")
                        if variant == .nextDeliveryOrPostReturn {
                            row.expectDeterministic(
                                "≤ \(Self.maxTraps(observers: observers)) traps per post",
                                traps <= Self.maxTraps(observers: observers))
                        }
                    }
                })
        }
        return rows
    }
}

extension FoundationProbeWorkload {
    /// The target: one trap per observer, one for the post and one for its return.
    static func maxTraps(observers: Int) -> Int { observers + 2 }

    /// Posts unprobed, attaches (`attach` returns how to detach: false when nothing was sent),
    /// posts again, and sets the row's factor; `judge` sets its target.
    static func measure(
        _ name: String, observers: Int, measurer: Measurer,
        attach: () throws(FoundationAttachError) -> () -> Bool,
        judge: (inout Row, _ factor: Double, _ probedNanoseconds: Double) -> Void
    ) throws -> Row {
        let fixture = PostFixture<FoundationCenter>(observers: observers)
        let unprobed = measurer.measure { n in
            for _ in 0..<n { fixture.post() }
        }
        try fixture.verify(posts: unprobed.operations, name)
        fixture.reset()
        var row = Row(name)
        let detach: () -> Bool
        do { detach = try attach() } catch {
            row.target = "not measured: \(error)"
            return row
        }
        let probed = measurer.measure { n in
            for _ in 0..<n { fixture.post() }
        }
        let sent = detach()
        try fixture.verify(posts: probed.operations, name)
        guard sent else {
            throw DeliveryMismatch(benchmark: name, center: "FoundationCenter", detail: "the probes sent nothing")
        }
        let factor = probed.nsPerOp / unprobed.nsPerOp
        row.foundation = .factorOf(factor, numerator: probed.nsPerOp, denominator: unprobed.nsPerOp)
        judge(&row, factor, probed.nsPerOp)
        return row
    }
}

/// Reads a stream to its end on a thread of its own, as a viewer that keeps up would.
final class Drain: @unchecked Sendable {  // `bytes` is read only after the thread ends
    private var bytes = 0
    private let done = DispatchSemaphore(value: 0)

    init(_ stream: UnixSocket) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while let count = buffer.withUnsafeMutableBytes({ stream.read(into: $0, timeoutMilliseconds: 1_000) }) {
                bytes += count
            }
            done.signal()
        }
    }

    /// The bytes read, once the stream ended (at most a minute after the session stopped).
    func finish() -> Int {
        _ = done.wait(timeout: .now() + 60)
        return bytes
    }
}
