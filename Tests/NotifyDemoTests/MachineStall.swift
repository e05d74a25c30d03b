import NotifyDemo
import NotifyKit
import NotifyWire

/// A run the machine stalled, told apart from a run the app made slow.
///
/// Every handler of the deterministic demo runs in microseconds except the one the
/// `slow-main-handler` bug puts to sleep. A delivery of any other lasting R7's warning level
/// (100 ms) is a thread the machine kept off its CPU (a loaded two-core host under
/// ThreadSanitizer): notifytop rightly reports it, but it says nothing about the planted bugs. A
/// test that asserts which rules a run raises records such a run again, up to three times in all;
/// a handler the app itself makes slow is slow every time, so the assertion still fails then.
enum MachineStall {
    /// R7's warning level, in nanoseconds.
    static let slowDelivery: UInt64 = 100_000_000
    static let attempts = 3

    /// Records with `record` until a run is free of stalls, at most ``attempts`` times; the last
    /// run is returned either way.
    static func retrying<Run>(_ record: () throws -> Run, stalls: (Run) -> [String]) rethrows -> Run {
        var run = try record()
        for _ in 1..<attempts where !stalls(run).isEmpty {
            run = try record()
        }
        return run
    }

    /// Deliveries over ``slowDelivery`` that no planted bug explains, as "name duration" lines.
    static func stalls(
        _ deliveries: some Sequence<(name: String, duration: UInt64)>, bugs: [DemoBug]
    ) -> [String] {
        let slowName = bugs.contains(.slowMainHandler) ? DemoBug.slowMainHandler.name.string : nil
        return deliveries.filter { $0.duration >= slowDelivery && $0.name != slowName }
            .map { "\($0.name) \($0.duration / 1_000_000) ms" }
    }
}

extension RecordedDemoRun {
    /// Deliveries the machine stalled (see ``MachineStall``).
    var stalls: [String] {
        MachineStall.stalls(
            events.lazy.compactMap { event -> (name: String, duration: UInt64)? in
                guard case .delivered(let delivery) = event.kind else { return nil }
                return (delivery.name, delivery.duration)
            }, bugs: configuration.bugs)
    }
}

extension RecordedDemoTrace {
    /// Deliveries the machine stalled (see ``MachineStall``).
    func stalls(bugs: [DemoBug]) -> [String] {
        MachineStall.stalls(
            events.lazy.compactMap { event -> (name: String, duration: UInt64)? in
                guard case .delivered(let delivery) = event else { return nil }
                return (delivery.name, delivery.duration)
            }, bugs: bugs)
    }
}
