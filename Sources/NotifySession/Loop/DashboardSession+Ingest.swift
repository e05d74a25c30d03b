package import NotifyWire
import NotifyModel
import NotifyTUI

/// Folding: what every source's events go through on their way to the model, the event tail,
/// the recording's memory and the action log.
extension DashboardSession {
    /// Forgets every event folded so far, so a replay can fold again from its start.
    func resetFold() {
        model = InspectorState(configuration: model.configuration)
        tail = EventTail(capacity: tail.capacity)
        memory = SessionRecorder.Memory()
    }

    /// Folds events into the model (and the tail, the recording and the pause counter).
    package func ingest(_ events: [TraceEvent]) {
        guard !events.isEmpty else { return }
        // The live path's fold, on a copy of the batch (each event is copied once, as the fold
        // moves it out).
        var batches = [events]
        ingest(taking: &batches)
    }

    /// Folds the batches a live feed handed over, taking their events instead of copying them
    /// (a copy retains every string of an event, and its release costs as much again); leaves
    /// the batches empty. Only the newest events are copied, into the tail.
    func ingest(taking batches: inout [[TraceEvent]]) {
        var newer = 0
        var firstKept = batches.count
        while firstKept > 0 && newer < tail.capacity {
            firstKept -= 1
            for event in batches[firstKept] where event.seq != nil { newer += 1 }
        }
        var total = 0
        var notes: [(ActionLog.Kind, String)] = []
        let viewersBefore = model.viewers
        for index in batches.indices {
            if index < firstKept { tail.pass(over: batches[index]) } else { tail.append(contentsOf: batches[index]) }
            total += batches[index].count
            Self.fold(taking: &batches[index], into: &model, memory: &memory, recorder: &recorder, notes: &notes)
        }
        if let viewers = model.viewers, viewers != viewersBefore {
            notes.append(
                (
                    .stream,
                    "\(viewers) \(viewers == 1 ? "viewer" : "viewers") attached to the process (this one included)"
                ))
        }
        for (kind, text) in notes { logAction(kind, text) }
        if frozen != nil && total > 0 { status.eventsWhilePaused = (status.eventsWhilePaused ?? 0) + UInt64(total) }
        if status.registrationMark != nil { dropRegistrationMarkOfAnotherProcess() }
    }

    /// What the action log says about an event the stream sent about itself.
    static func actionNote(for event: TraceEvent) -> (ActionLog.Kind, String)? {
        switch event {
        case .header(let header):
            (
                .stream,
                "stream header: \(header.process) pid \(header.pid), format "
                    + "\(header.version.major).\(header.version.minor), \(header.producer)"
            )
        case .gap(let gap): (.loss, "\(gap.count) events lost (\(gap.reason.rawValue))")
        case .end(let end) where end.reason == .recordingStopped:
            (.stream, "the recording ends here: stopped by the user")
        case .end(let end): (.stream, "producer ended the stream (\(end.reason.rawValue))")
        default: nil
        }
    }

    /// Moves each event out of `batch` into the fold, leaving a placeholder that owns nothing.
    /// Static, with the destinations passed in, so each is accessed once per batch rather than
    /// once per event.
    static func fold(
        taking batch: inout [TraceEvent], into model: inout InspectorState, memory: inout SessionRecorder.Memory,
        recorder: inout SessionRecorder?, notes: inout [(ActionLog.Kind, String)]
    ) {
        let placeholder = TraceEvent.gap(TraceGap(seq: 0, timestamp: 0, count: 0, reason: .bufferFull))
        batch.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for index in buffer.indices {
                let event = (base + index).move()
                model.apply(event)
                if let note = actionNote(for: event) { notes.append(note) }
                recorder?.write(event)
                memory.observe(event)  // last: the memory keeps the event itself
                (base + index).initialize(to: placeholder)
            }
        }
        batch.removeAll(keepingCapacity: true)
    }
}
