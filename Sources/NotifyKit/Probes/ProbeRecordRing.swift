import CNotifyTicks
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

    // Shared, read-only once made; the header before them holds the reference count, which the
    // drainer writes. The writer's per-record path reads none of these.
    /// ``NotifyThread/id`` of the thread that writes.
    let thread: UInt64
    let recorderID: UInt64
    let capacity: UInt64
    /// Records are written in chunks of `chunkSize`; a chunk the reader is done with is written
    /// again next, so while the reader keeps up, the thread writes the same few chunks (in its
    /// caches) rather than walking the whole ring.
    private let chunkSize: UInt64
    private let chunkShift: UInt64
    /// Room for every chunk the ring may hold at once: `capacity / chunkSize + 1`, as the chunk the
    /// reader is partway through stays held while the writer fills a whole ring after it.
    private let chunkCount: Int
    /// One allocation holding every chunk; a page is touched only once its chunk is first used.
    private let storage: UnsafeMutablePointer<ProbeRecord>
    /// The chunk each stretch of `chunkSize` indices is written in, by `(index >> chunkShift) & tableMask`;
    /// set by the writer before it publishes the first record in the chunk.
    private let table: UnsafeMutablePointer<UnsafeMutablePointer<ProbeRecord>>
    private let tableMask: UInt64
    /// Chunks the reader is done with, for the writer to take (single producer: the reader).
    private let spare: UnsafeMutablePointer<UnsafeMutablePointer<ProbeRecord>>
    private let spareMask: UInt64
    // Keeps the writer's fields off the lines above: the drainer reads those for every record.
    private let sharedPadding = InlineArray<16, UInt64>(repeating: 0)

    // Producer side: fields only the writer touches per record, on cache lines of their own.
    /// `capacity` and `chunkSize - 1` again, where the writer reads them.
    private let writeCapacity: UInt64
    private let writeChunkMask: UInt64
    @exclusivity(unchecked) private var writeIndex: UInt64 = 0
    /// The reader's index as last loaded; reloaded only when the ring looks full.
    @exclusivity(unchecked) private var knownReadIndex: UInt64 = 0
    /// The chunk being written.
    @exclusivity(unchecked) private var chunk: UnsafeMutablePointer<ProbeRecord>
    /// The names this thread's slots stand for, keyed by their bits (see ``RecentName``); each name is
    /// held, so no other string arrives with its bits while it keeps the slot.
    private let nameBits: UnsafeMutablePointer<RecentName.Bits>
    /// Records published to the reader (release).
    let published = Atomic<UInt64>(0)
    /// Events dropped for want of room, ever; written only by the producer.
    let dropped = Atomic<UInt64>(0)
    /// Chunks of `storage` handed out so far; spares taken so far.
    @exclusivity(unchecked) private(set) var chunksUsed = 0
    @exclusivity(unchecked) private var sparesTaken: UInt64 = 0
    @exclusivity(unchecked) private var names: [Notification.Name?]
    private let producerPadding = InlineArray<16, UInt64>(repeating: 0)

    // Consumer side.
    /// Records the reader is done with (release): their slots may be written again.
    let consumed = Atomic<UInt64>(0)
    /// Spare chunks given back so far (release), and chunks given back, counted from index 0.
    private let sparesGiven = Atomic<UInt64>(0)
    @exclusivity(unchecked) private var chunksReleased: UInt64 = 0
    /// ``dropped`` as the drainer last reported it.
    @exclusivity(unchecked) var droppedReported: UInt64 = 0
    /// The name of each slot, as the records read so far defined them.
    @exclusivity(unchecked) private(set) var slotNames: [String]
    /// Each slot's serial for the name it holds (see ``ProbeDrainedRecord/nameSerial``).
    private let slotSerials: UnsafeMutablePointer<UInt64>
    /// The last serial a slot's definition took, over every ring; 0 stands for no name.
    private static let lastNameSerial = Atomic<UInt64>(0)
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
        chunkSize = min(rounded, 256)
        writeCapacity = rounded
        writeChunkMask = chunkSize &- 1
        chunkShift = UInt64(chunkSize.trailingZeroBitCount)
        chunkCount = Int(rounded / chunkSize) + 1
        storage = .allocate(capacity: chunkCount * Int(chunkSize))
        let slots = 2 * Int(rounded / chunkSize)
        table = .allocate(capacity: slots)
        table.initialize(repeating: storage, count: slots)
        tableMask = UInt64(slots - 1)
        spare = .allocate(capacity: slots)
        spare.initialize(repeating: storage, count: slots)
        spareMask = UInt64(slots - 1)
        chunk = storage
        nameBits = .allocate(capacity: Self.nameSlots)
        nameBits.initialize(repeating: .zero, count: Self.nameSlots)
        names = Array(repeating: nil, count: Self.nameSlots)
        slotNames = Array(repeating: "", count: Self.nameSlots)
        slotSerials = .allocate(capacity: Self.nameSlots)
        slotSerials.initialize(repeating: 0, count: Self.nameSlots)
    }

    deinit {
        // Boxes never read are released here.
        var index = consumed.load(ordering: .acquiring)
        let end = published.load(ordering: .acquiring)
        while index != end {
            let record = self.record(at: index)
            if record.kind == .boxed || record.kind == .nameDefined { _ = record.takeBox() }
            index &+= 1
        }
        storage.deallocate()
        table.deallocate()
        spare.deallocate()
        nameBits.deallocate()
        slotSerials.deallocate()
    }

    /// Reads slot `slot` as `name` from here on, under a serial no other definition takes. Drainer only.
    func define(slot: UInt16, as name: String) {
        slotNames[Int(slot)] = name
        slotSerials[Int(slot) & (Self.nameSlots - 1)] = Self.lastNameSerial.add(1, ordering: .relaxed).newValue
    }

    /// The serial of the name slot `slot` holds. Drainer only.
    @inline(__always)
    func nameSerial(ofSlot slot: UInt16) -> UInt64 { slotSerials[Int(slot) & (Self.nameSlots - 1)] }

    /// Writes `record`; false (and nothing written) when the ring is full.
    @inline(__always)
    func append(_ record: ProbeRecord) -> Bool {
        guard let slot = nextSlot() else { return false }
        slot.initialize(to: record)
        publishSlot()
        return true
    }

    /// Where the next record goes; nil when the ring is full. Follow a write with ``publishSlot()``.
    @inline(__always)
    private func nextSlot() -> UnsafeMutablePointer<ProbeRecord>? {
        let index = writeIndex
        if index &- knownReadIndex >= writeCapacity {
            knownReadIndex = consumed.load(ordering: .acquiring)
            if index &- knownReadIndex >= writeCapacity { return nil }
        }
        let offset = index & writeChunkMask
        if offset == 0 { startChunk(at: index) }
        let slot = chunk + Int(offset)
        // The lines of a record a few posts ahead: the drainer read them last, so the write must
        // fetch them from its cache. (Past a chunk's end the hint is wasted, never harmful.)
        let ahead = UnsafeRawPointer(slot + Self.prefetchDistance)
        notify_prefetch_for_write(ahead)
        notify_prefetch_for_write(ahead + MemoryLayout<ProbeRecord>.stride - 1)
        return slot
    }

    /// Records ahead of the one being written whose lines are asked for.
    static let prefetchDistance = 8

    @inline(__always)
    func publishSlot() {
        writeIndex &+= 1
        published.store(writeIndex, ordering: .releasing)
    }

    /// Takes the chunk indices from `index` on are written in: one the reader gave back, else one
    /// never used.
    @inline(never)
    private func startChunk(at index: UInt64) {
        if sparesTaken != sparesGiven.load(ordering: .acquiring) {
            chunk = spare[Int(sparesTaken & spareMask)]
            sparesTaken &+= 1
        } else {
            precondition(chunksUsed < chunkCount, "a ring holds at most chunkCount chunks at once")
            chunk = storage + chunksUsed * Int(chunkSize)
            chunksUsed += 1
        }
        table[Int((index >> chunkShift) & tableMask)] = chunk
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
        guard let (slot, nameSlot) = reserve(named: name) else { return }
        slot.initialize(to: make(nameSlot))
        publishSlot()
    }

    /// Where the next record naming `name` goes, and the name's slot; nil, with the event counted
    /// as dropped, when the ring is full. Initialize the record, then call ``publishSlot()``.
    @inline(__always)
    func reserve(named name: Notification.Name) -> (UnsafeMutablePointer<ProbeRecord>, UInt16)? {
        guard let nameSlot = slot(for: name), let slot = nextSlot() else {
            countDrop()
            return nil
        }
        return (slot, nameSlot)
    }

    /// Writes a rare event whole.
    func appendBoxed(_ event: ProbeEvent, center: UInt8) {
        var record = ProbeRecord.carrying(ProbeEventBox(event), kind: .boxed, timestamp: event.timestamp)
        record.center = center
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
        table[Int((index >> chunkShift) & tableMask)][Int(index & (chunkSize &- 1))]
    }

    /// Marks the records before `index` read: gives back the chunks they fill for the writer to
    /// use again, then frees their slots.
    func consume(upTo index: UInt64) {
        var given = sparesGiven.load(ordering: .relaxed)
        while (chunksReleased &+ 1) << chunkShift <= index {
            spare[Int(given & spareMask)] = table[Int(chunksReleased & tableMask)]
            given &+= 1
            chunksReleased &+= 1
        }
        sparesGiven.store(given, ordering: .releasing)
        consumed.store(index, ordering: .releasing)
    }
}
