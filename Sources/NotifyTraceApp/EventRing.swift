public import NotifyKit
import NotifySystem

/// The probe an inspected app attaches: it copies each event into a bounded buffer and returns.
///
/// The posting thread does no encoding and no system call: a short critical section around an
/// append into capacity reserved up front. The exporter swaps the filled buffer for an empty one
/// of the same capacity, so the posting side never allocates either. When the exporter falls
/// behind, events are counted, not stored, and the count reaches viewers as a `gap`.
public final class EventRing: NotifyProbe, @unchecked Sendable {  // `lock` guards `pending` and `dropped`
    /// How many events the buffer holds between two drains.
    public let capacity: Int
    private let lock = Lock()
    private var pending: [ProbeEvent]
    private var dropped: UInt64 = 0

    /// - Parameter capacity: Events kept between drains; the exporter drains every few milliseconds.
    public init(capacity: Int = 1 << 16) {
        self.capacity = max(1, capacity)
        pending = []
        pending.reserveCapacity(self.capacity)
    }

    public func receive(_ event: ProbeEvent) {
        lock.lock()
        if pending.count < capacity {
            pending.append(event)
        } else {
            dropped &+= 1
        }
        lock.unlock()
    }

    /// Exchanges the pending events for `spare` (which must be empty with the same capacity) and
    /// returns how many events were dropped since the last drain.
    func drain(swappingWith spare: inout [ProbeEvent]) -> UInt64 {
        spare.removeAll(keepingCapacity: true)
        if spare.capacity < capacity { spare.reserveCapacity(capacity) }
        lock.lock()
        swap(&pending, &spare)
        let lost = dropped
        dropped = 0
        lock.unlock()
        return lost
    }
}
