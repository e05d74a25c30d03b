import NotifyKit

/// What the exporter drained while probed, added up: per (thread, name) posts, deliveries and
/// unheard posts, and each registration's deliveries. A viewer that attaches later receives these
/// with the center's unwatched counts, so its totals cover the whole process.
///
/// Used by the exporter thread only. A record's name serial stands for one thread's name (each
/// thread writes its own ring), so most records find their totals by serial, with no hashing.
final class WatchedTotals {
    private static let serialSlots = 256
    private static let registrationSlots = 1024

    @exclusivity(unchecked) private var keys: [NotifyHistory.Key] = []
    @exclusivity(unchecked) private var totals: [HistoryCounts] = []
    @exclusivity(unchecked) private var index: [NotifyHistory.Key: Int] = [:]
    /// The totals index each recent name serial stands for.
    @exclusivity(unchecked) private var serials = [UInt64](repeating: .max, count: serialSlots)
    @exclusivity(unchecked) private var serialIndex = [Int](repeating: 0, count: serialSlots)
    /// Registration deliveries: recent registrations in slots, the others in `settled`.
    @exclusivity(unchecked) private var registrationIDs = [UInt64](repeating: .max, count: registrationSlots)
    @exclusivity(unchecked) private var registrationCounts = [UInt64](repeating: 0, count: registrationSlots)
    @exclusivity(unchecked) private var settled: [UInt64: UInt64] = [:]
    /// The latest checkpoints drained, oldest first.
    @exclusivity(unchecked) private(set) var checkpoints: [NotifyHistory.Checkpoint] = []
    static let checkpointsKept = 64

    /// An event drained whole: posts and deliveries (rarely carried so), and checkpoints;
    /// `registrationID` gives a registration's id as the stream writes it.
    func count(_ event: ProbeEvent, registrationID: (UInt64) -> UInt64 = { $0 }) {
        switch event.kind {
        case .posted(let post):
            countPost(thread: event.thread, serial: 0, name: { post.name }, unheard: post.matched == 0)
        case .delivered(let delivery):
            countDelivery(
                thread: event.thread, serial: 0, name: { delivery.name },
                registration: registrationID(delivery.registration))
        case .checkpoint(let label, let callsite):
            if checkpoints.count == Self.checkpointsKept { checkpoints.removeFirst() }
            checkpoints.append(
                NotifyHistory.Checkpoint(
                    label: label, callsite: callsite, thread: event.thread, timestamp: event.timestamp, watched: true))
        case .removed(let registration, _, _):
            forget(registration: registrationID(registration))
        default:
            break
        }
    }

    /// A post drained from `thread`'s ring; unheard when it matched no registration.
    @inline(__always)
    func countPost(thread: UInt64, serial: UInt64, name: () -> String, unheard: Bool) {
        let at = totalsIndex(thread: thread, serial: serial, name: name)
        totals[at].posts &+= 1
        if unheard { totals[at].unheard &+= 1 }
    }

    /// A delivery drained from `thread`'s ring.
    @inline(__always)
    func countDelivery(thread: UInt64, serial: UInt64, name: () -> String, registration: UInt64) {
        let at = totalsIndex(thread: thread, serial: serial, name: name)
        totals[at].deliveries &+= 1
        let slot = Int(registration % UInt64(Self.registrationSlots))
        if registrationIDs[slot] != registration { moveSlot(slot, to: registration) }
        registrationCounts[slot] &+= 1
    }

    @inline(__always)
    private func totalsIndex(thread: UInt64, serial: UInt64, name: () -> String) -> Int {
        let slot = Int(serial % UInt64(Self.serialSlots))
        if serials[slot] == serial && serial != 0 { return serialIndex[slot] }
        return remember(serial: serial, slot: slot, key: NotifyHistory.Key(thread: thread, name: name()))
    }

    @inline(never)
    private func remember(serial: UInt64, slot: Int, key: NotifyHistory.Key) -> Int {
        let at: Int
        if let known = index[key] {
            at = known
        } else {
            at = keys.count
            keys.append(key)
            totals.append(HistoryCounts())
            index[key] = at
        }
        serials[slot] = serial
        serialIndex[slot] = at
        return at
    }

    @inline(never)
    private func moveSlot(_ slot: Int, to registration: UInt64) {
        if registrationIDs[slot] != .max, registrationCounts[slot] != 0 {
            settled[registrationIDs[slot], default: 0] &+= registrationCounts[slot]
        }
        registrationIDs[slot] = registration
        registrationCounts[slot] = settled.removeValue(forKey: registration) ?? 0
    }

    /// Every (thread, name) total with a count.
    var counts: [NotifyHistory.Key: HistoryCounts] {
        var result: [NotifyHistory.Key: HistoryCounts] = [:]
        for (at, key) in keys.enumerated() where !totals[at].isZero { result[key] = totals[at] }
        return result
    }

    /// Deliveries drained for `registration`.
    func deliveries(of registration: UInt64) -> UInt64 {
        let slot = Int(registration % UInt64(Self.registrationSlots))
        if registrationIDs[slot] == registration { return registrationCounts[slot] }
        return settled[registration] ?? 0
    }

    /// Lets go of an ended registration's count.
    func forget(registration: UInt64) {
        let slot = Int(registration % UInt64(Self.registrationSlots))
        if registrationIDs[slot] == registration {
            registrationIDs[slot] = .max
            registrationCounts[slot] = 0
        }
        settled[registration] = nil
    }
}
