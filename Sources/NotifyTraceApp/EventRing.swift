import NotifyKit

#if canImport(Glibc)
import Glibc
#endif

/// The probe an inspected app attaches: it copies each event into a bounded buffer and returns.
///
/// The posting thread does no encoding and no system call: a short critical section around an
/// append into capacity reserved up front. The exporter swaps the filled buffer for an empty one
/// of the same capacity, so the posting side never allocates either. When the exporter falls
/// behind, events are counted, not stored, and the count reaches viewers as a `gap`.
public final class EventRing: NotifyProbe, @unchecked Sendable {  // `mutex` guards `pending` and `dropped`
    /// How many events the buffer holds between two drains.
    public let capacity: Int
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var pending: [ProbeEvent]
    private var dropped: UInt64 = 0

    /// - Parameter capacity: Events kept between drains; the exporter drains every few milliseconds.
    public init(capacity: Int = 1 << 16) {
        self.capacity = max(1, capacity)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        pending = []
        pending.reserveCapacity(self.capacity)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func receive(_ event: ProbeEvent) {
        pthread_mutex_lock(mutex)
        if pending.count < capacity {
            pending.append(event)
        } else {
            dropped &+= 1
        }
        pthread_mutex_unlock(mutex)
    }

    /// Exchanges the pending events for `spare` (which must be empty with the same capacity) and
    /// returns how many events were dropped since the last drain.
    func drain(swappingWith spare: inout [ProbeEvent]) -> UInt64 {
        spare.removeAll(keepingCapacity: true)
        if spare.capacity < capacity { spare.reserveCapacity(capacity) }
        pthread_mutex_lock(mutex)
        swap(&pending, &spare)
        let lost = dropped
        dropped = 0
        pthread_mutex_unlock(mutex)
        return lost
    }
}
