import NotifyKit
import NotifyModel
import NotifyTraceApp
import NotifyWire

/// One leak check: a probe on the center while the block runs, then its events turned into trace
/// lines (as the inspector turns them for notifytop) and folded as notifytop folds a recording.
final class LeakCheckSession {
    private let probe = InMemoryProbe()
    private let attachment: NotifyProbeAttachment

    init(center: NotifyCenter) {
        attachment = center.attach(probe)
    }

    func detach() { attachment.detach() }

    /// Detaches the probe and folds every event it received.
    func report(configuration: InspectorConfiguration) -> LeakReport {
        detach()
        let events = probe.events
        var converter = ProbeEventConverter()
        var lines: [TraceEvent] = []
        lines.reserveCapacity(events.count * 2)
        for event in events { converter.translate(event, into: &lines) }
        var model = InspectorState(configuration: configuration)
        for line in lines {
            model.apply(line)
            // Each timed line moves the clock, as a replay does: time-based rules judge on it.
            if let time = line.timestamp { model.tick(now: time) }
        }
        return LeakReport(model: model, droppedEvents: probe.droppedCount)
    }
}
