/// A run the machine stalled, told apart from a run the app made slow.
///
/// Every handler of the deterministic demo runs in microseconds except the one the
/// `slow-main-handler` bug puts to sleep. A delivery of any other lasting R7's warning level
/// (100 ms) is a thread the machine kept off its CPU (a loaded two-core host under
/// ThreadSanitizer): notifytop rightly reports it, but it says nothing about the planted bugs. A
/// test that asserts which rules a run raises records such a run again, up to three times in all;
/// a handler the app itself makes slow is slow every time, so the assertion still fails then.
package enum MachineStall {
    /// R7's warning level, in nanoseconds.
    package static let slowDelivery: UInt64 = 100_000_000
    package static let attempts = 3

    /// Records with `record` until a run is free of stalls, at most ``attempts`` times; the last
    /// run is returned either way.
    package static func retrying<Run>(_ record: () throws -> Run, stalls: (Run) -> [String]) rethrows -> Run {
        var run = try record()
        for _ in 1..<attempts where !stalls(run).isEmpty {
            run = try record()
        }
        return run
    }

    /// Deliveries over ``slowDelivery`` other than those of `slowName` (the handler a planted bug
    /// makes slow), as "name duration" lines.
    package static func stalls(
        _ deliveries: some Sequence<(name: String, duration: UInt64)>, sparing slowName: String?
    ) -> [String] {
        deliveries.filter { $0.duration >= slowDelivery && $0.name != slowName }
            .map { "\($0.name) \($0.duration / 1_000_000) ms" }
    }
}
