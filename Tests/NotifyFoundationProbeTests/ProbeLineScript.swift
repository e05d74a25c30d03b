import NotifyFoundationProbe
import NotifyWire
import Testing

/// Lookups that need no process: thread `n` is named `tn`, a site is `app.swift` at its last
/// return address, an object's type is `TypeN`.
var testLookups: ProbeEventBuilder.Lookups {
    ProbeEventBuilder.Lookups(
        threadName: { "t\($0)" }, site: { ProbeSite(file: "app.swift", line: UInt($0.last ?? 0)) },
        typeName: { "Type\($0)" })
}

/// The trace events that bpftrace's `lines` become, as `notifytop --foundation` builds them; a
/// line that does not parse is recorded as an issue. `reconciled` adds those of the final
/// reconciliation with the kernel's line counts (the stream's end).
func probeEvents(
    _ lines: [String], lookups: ProbeEventBuilder.Lookups = testLookups, reconciled: Bool = false
) -> [TraceEvent] {
    var builder = ProbeEventBuilder(pid: 1, lookups: lookups)
    var events: [TraceEvent] = []
    for line in lines {
        guard let probe = ProbeLine(line[...]) else {
            Issue.record("not a probe line: \(line)")
            continue
        }
        builder.add(probe, to: &events)
    }
    if reconciled { builder.reconcile(to: &events) }
    return events
}
