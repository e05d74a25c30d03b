import Foundation
import Synchronization

/// One thread's records for one ``ProbeRecorder``: a single-producer, single-consumer ring.
///
/// Only the owning thread writes (``append(_:)``), only the recorder's drainer reads, and they
/// share two indices on separate cache lines: a posting thread touches no memory another posting
/// thread writes. A full ring counts the event as dropped; the drainer reports the count.
final class ProbeRecordRing: @unchecked Sendable {  // producer fields: owner thread; consumer fields: drainer
    /// Names a ring keeps slots for at once; a name that takes a used slot is defined again.
    static let nameSlots = 64

    /// ``NotifyThread/id`` of the thread that writes.
    let thread: UInt64
    let recorderID: UInt64
    let capacity: UInt64
    private let mask: UInt64
    private let storage: UnsafeMutablePointer<ProbeRecord>

    // Producer side.
    @exclusivity(unchecked) private var writeIndex: UInt64 = 0
    /// The reader's index as last loaded; reloaded only when the ring looks full.
    @exclusivity(unchecked) private var knownReadIndex: UInt64 = 0
    /// The names this thread's slots stand for, keyed by their bits (see ``RecentName``); each name is
    /// held, so no other string arrives with its bits while it keeps the slot.
    private let nameBits: UnsafeMutablePointer<RecentName.Bits>
    @exclusivity(unchecked) private var names: [Notification.Name?]
    /// Records published to the reader (release).
    let published = Atomic<UInt64>(0)
    /// Events dropped for want of room, ever; written only by the producer.
    let dropped = Atomic<UInt64>(0)
    private let producerPadding = InlineArray<16, UInt64>(repeating: 0)

    // Consumer side.
    /// Records the reader is done with (release): their slots may be written again.
    let consumed = Atomic<UInt64>(0)
    /// ``dropped`` as the drainer last reported it.
    @exclusivity(unchecked) var droppedReported: UInt64 = 0
    /// The name of each slot, as the records read so far defined them.
    @exclusivity(unchecked) var slotNames: [String]
    /// Set when the thread exits: drained, then let go.
    let closed = Atomic<Bool>(false)
    /// Set when the recorder goes away: the thread lets the ring go at its next lookup.
    let abandoned = Atomic<Bool>(false)
    private let consumerPadding = InlineArray<16, UInt64>(repeating: 0)

    /// - Parameter capacity: Records held; rounded up to a power of two.
    init(thread: UInt64, recorderID: UInt64, capacity: Int) {
        self.thread = thread
        self.recorderID = recorderID
        var rounded: UInt64 = 1
        while rounded < UInt64(max(2, capacity)) { rounded <<= 1 }
        self.capacity = rounded
        mask = rounded - 1
        storage = .allocate(capacity: Int(rounded))
        nameBits = .allocate(capacity: Self.nameSlots)
        nameBits.initialize(repeating: .zero, count: Self.nameSlots)
        names = Array(repeating: nil, count: Self.nameSlots)
        slotNames = Array(repeating: "", count: Self.nameSlots)
    }

    deinit {
        // Boxes never read are released here.
        var index = consumed.load(ordering: .acquiring)
        let end = published.load(ordering: .acquiring)
        while index != end {
            let record = storage[Int(index & mask)]
            if record.kind == .boxed || record.kind == .nameDefined { _ = record.takeBox() }
            index &+= 1
        }
        storage.deallocate()
        nameBits.deallocate()
    }

    /// Writes `record`; false (and nothing written) when the ring is full.
    @inline(__always)
    func append(_ record: ProbeRecord) -> Bool {
        let index = writeIndex
        if index &- knownReadIndex >= capacity {
            knownReadIndex = consumed.load(ordering: .acquiring)
            if index &- knownReadIndex >= capacity { return false }
        }
        (storage + Int(index & mask)).initialize(to: record)
        writeIndex = index &+ 1
        published.store(index &+ 1, ordering: .releasing)
        return true
    }

    /// Writes an event's record, or counts it as dropped.
    @inline(__always)
    func appendEvent(_ record: ProbeRecord) {
        if !append(record) { countDrop() }
    }

    func countDrop() {
        dropped.store(dropped.load(ordering: .relaxed) &+ 1, ordering: .releasing)
    }

    /// Writes a posted or delivered record naming `name`, or counts it as dropped.
    @inline(__always)
    func appendEvent(_ record: ProbeRecord, named name: Notification.Name) {
        appendEvent(named: name) { slot in
            var record = record
            record.nameSlot = slot
            return record
        }
    }

    /// Writes the record `make` builds for the name slot of `name` straight into the ring, or
    /// counts it as dropped. Built in place, the record is not assembled on the stack and copied:
    /// that copy's wide loads of narrow stores stall the posting thread.
    @inline(__always)
    func appendEvent(named name: Notification.Name, _ make: (_ nameSlot: UInt16) -> ProbeRecord) {
        guard let slot = slot(for: name) else { return countDrop() }
        let index = writeIndex
        if index &- knownReadIndex >= capacity {
            knownReadIndex = consumed.load(ordering: .acquiring)
            if index &- knownReadIndex >= capacity { return countDrop() }
        }
        (storage + Int(index & mask)).initialize(to: make(slot))
        writeIndex = index &+ 1
        published.store(index &+ 1, ordering: .releasing)
    }

    /// Writes a rare event whole.
    func appendBoxed(_ event: ProbeEvent) {
        let record = ProbeRecord.carrying(ProbeEventBox(event), kind: .boxed, timestamp: event.timestamp)
        if !append(record) {
            _ = record.takeBox()
            countDrop()
        }
    }

    /// The slot standing for `name` in this ring, defining it first if needed; nil when the ring
    /// has no room for the definition.
    @inline(__always)
    private func slot(for name: Notification.Name) -> UInt16? {
        let bits = RecentName.bits(of: name)
        let slot = RecentName.slot(of: bits, in: Self.nameSlots)
        if nameBits[slot] == bits { return UInt16(slot) }
        return define(name, bits: bits, slot: slot)
    }

    @inline(never)
    private func define(_ name: Notification.Name, bits: RecentName.Bits, slot: Int) -> UInt16? {
        let record = ProbeRecord.carrying(
            ProbeNameBox(name.rawValue), kind: .nameDefined, timestamp: 0, nameSlot: UInt16(slot))
        guard append(record) else {
            _ = record.takeBox()
            return nil
        }
        nameBits[slot] = bits
        names[slot] = name
        return UInt16(slot)
    }

    // MARK: Consumer

    /// The record at `index`, which must lie between ``consumed`` and ``published``.
    @inline(__always)
    func record(at index: UInt64) -> ProbeRecord {
        storage[Int(index & mask)]
    }
}
