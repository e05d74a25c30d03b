import Foundation
import NotifyFoundationProbe
import NotifySystem

/// What `notifytop --foundation`'s probes cost Foundation's own post, as probed ÷ unprobed in one
/// run: the benchmark attaches bpftrace to itself and drains the stream as a viewer would. Needs
/// root (or CAP_BPF and CAP_PERFMON), bpftrace and tracefs; without them the row says why.
struct FoundationProbeWorkload: Workload {
    static let observerCounts = [1, 10]
    static let maxFactor = 1.5

    let measurer: Measurer

    static func rowName(observers: Int) -> String {
        "--foundation probes ÷ unprobed Foundation post, \(observers) observer\(observers == 1 ? "" : "s")"
    }

    var rowNames: [String] { Self.observerCounts.map(Self.rowName) }

    func run(_ options: BenchOptions) throws -> [Row] {
        try selectedRows(Self.observerCounts, named: Self.rowName, options) { observers, name in
            let fixture = PostFixture<FoundationCenter>(observers: observers)
            let unprobed = measurer.measure { n in
                for _ in 0..<n { fixture.post() }
            }
            try fixture.verify(posts: unprobed.operations, name)
            fixture.reset()
            var row = Row(name)
            let session: FoundationProbeSession
            do {
                session = try FoundationProbeSession(pid: getpid())
            } catch {
                row.target = "not measured: \(error)"
                return row
            }
            let drained = Drain(session.stream)
            let probed = measurer.measure { n in
                for _ in 0..<n { fixture.post() }
            }
            session.stop()
            let bytes = drained.finish()
            try fixture.verify(posts: probed.operations, name)
            guard bytes > 0 else {
                throw DeliveryMismatch(benchmark: name, center: "FoundationCenter", detail: "the probes sent nothing")
            }
            let factor = probed.nsPerOp / unprobed.nsPerOp
            row.foundation = .factorOf(factor, numerator: probed.nsPerOp, denominator: unprobed.nsPerOp)
            row.expect("≤ \(Cell.decimal(Self.maxFactor, places: 1))×", factor <= Self.maxFactor)
            return row
        }
    }
}

/// Reads a stream to its end on a thread of its own, as a viewer that keeps up would.
private final class Drain: @unchecked Sendable {  // `bytes` is read only after the thread ends
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
