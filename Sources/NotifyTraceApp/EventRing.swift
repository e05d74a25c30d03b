package import NotifyKit
import NotifySystem

/// The probe an inspected app attaches: each posting thread writes its events as binary records
/// into a bounded ring of its own (see ``ProbeRecorder``), and the exporter drains them all.
///
/// The posting thread does no encoding, takes no lock and makes no system call. When the exporter
/// falls behind, a full ring counts its thread's events instead of storing them, and the count
/// reaches viewers as a `gap`.
package final class EventRing: RecordingProbe, @unchecked Sendable {  // drained from one thread
    /// How many events each thread's ring holds between two drains.
    package let capacity: Int
    private let rings: ProbeRecorder

    /// - Parameter capacity: Events a thread's ring keeps between drains; the exporter drains
    ///   every few milliseconds.
    package init(capacity: Int = 1 << 14) {
        self.capacity = max(2, capacity)
        rings = ProbeRecorder(capacityPerThread: self.capacity)
    }

    package var recorder: ProbeRecorder { rings }

    package func receive(_ event: ProbeEvent) {
        rings.receive(event)
    }

    /// Replaces the contents of `spare` with the events recorded since the last drain, in the
    /// order they happened, and returns how many events were dropped since the last drain.
    func drain(swappingWith spare: inout [ProbeEvent]) -> UInt64 {
        spare.removeAll(keepingCapacity: true)
        return rings.drain(into: &spare)
    }

    /// Every event the rings have dropped so far.
    var droppedTotal: UInt64 { rings.droppedTotal }
}

extension EventRing {
    /// Hands the records written since the last drain to `visitor`, in the order they happened,
    /// and returns how many events were dropped since the last drain. Records stamped after
    /// `notAfter` stay for the next drain.
    func drain<Visitor: ProbeRecordVisitor>(into visitor: inout Visitor, notAfter: UInt64 = .max) -> UInt64 {
        rings.drain(to: &visitor, notAfter: notAfter)
    }
}

/// What one of several inspected centers attaches: the ``EventRing``'s recorder, with the center's
/// index written into each record, so one drain merges every center's events in the order they
/// happened and tells them apart.
package final class CenterTap: RecordingProbe, Sendable {
    package let recorder: ProbeRecorder
    package let centerTag: UInt8

    init(ring: EventRing, center: UInt8) {
        recorder = ring.recorder
        centerTag = center
    }

    package func receive(_ event: ProbeEvent) {
        recorder.receive(event, center: centerTag)
    }
}
