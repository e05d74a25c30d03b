import NotifySystem
import Synchronization

/// A probe whose events each thread writes as fixed-size records into a ring of its own, and
/// which one reader drains into ``ProbeEvent``s later.
///
/// A probed post then costs its posting thread a clock reading and a few stores per event: no
/// lock, no allocation, no memory shared with other posting threads. The reader (one thread at a
/// time) merges the rings by time, keeping each thread's order, and builds the events. When a
/// thread's ring is full, its events are counted, not kept, and ``drain(into:)`` returns the count.
///
/// Expose a recorder from another probe with ``RecordingProbe/recorder``; ``InMemoryProbe`` and the
/// inspector's ring are recorders underneath.
package final class ProbeRecorder: RecordingProbe, @unchecked Sendable {  // `rings` under its lock; the rest: drainer
    private static let lastID = Atomic<UInt64>(0)

    /// Records each thread's ring holds between two drains.
    package let capacityPerThread: Int
    let id: UInt64
    private let rings = LockedValue<[ProbeRecordRing]>([])
    /// The rings as the drainer last listed them.
    @exclusivity(unchecked) private var draining: [ProbeRecordRing] = []
    /// The same rings, read per record with no retain: a retain writes the ring's first cache line,
    /// which the ring's writer would then have to fetch back.
    @exclusivity(unchecked) private var drainingRefs: [Unmanaged<ProbeRecordRing>] = []
    @exclusivity(unchecked) private var heads: [UInt64] = []
    @exclusivity(unchecked) private var tails: [UInt64] = []
    /// Whether each ring's thread had exited before its indices were read: then they are final.
    @exclusivity(unchecked) private var exited: [Bool] = []
    /// The time of each ring's next event, `.max` when none is due.
    @exclusivity(unchecked) private var nextTimes: [UInt64] = []
    /// The drop counts of rings let go of, for ``droppedTotal``.
    private let releasedDrops = Atomic<UInt64>(0)
    /// How far each ring's reading may lag the clock: a clock reading becomes a record a moment
    /// later, and counters on different threads agree only to within a few nanoseconds.
    static let settleNanoseconds: UInt64 = 2_000

    /// - Parameter capacityPerThread: Records a thread's ring holds; rounded up to a power of two.
    package init(capacityPerThread: Int = 1 << 14) {
        self.capacityPerThread = max(2, capacityPerThread)
        id = Self.lastID.add(1, ordering: .relaxed).newValue
    }

    deinit {
        rings.withLock { rings in
            for ring in rings { ring.abandoned.store(true, ordering: .releasing) }
        }
    }

    package var recorder: ProbeRecorder { self }

    /// Writes `event` whole into the calling thread's ring, after the events that thread wrote before.
    package func receive(_ event: ProbeEvent) {
        receive(event, center: 0)
    }

    /// ``receive(_:)`` for the center whose ``RecordingProbe/centerTag`` is `center`.
    package func receive(_ event: ProbeEvent, center: UInt8) {
        ThreadContext.current.withRing(for: self) { $0.appendBoxed(event, center: center) }
    }

    func register(_ ring: ProbeRecordRing) {
        rings.withLock { $0.append(ring) }
    }

    /// Appends every event recorded so far to `events`, in the order they happened (each thread's
    /// in its own order), and returns how many events were dropped since the last drain.
    ///
    /// Call from one thread at a time. An event whose clock was read in the last
    /// ``settleNanoseconds`` may wait for the next drain: by then, everything that happened before
    /// it on other threads has been written too, so no event is drained before its cause.
    @discardableResult
    package func drain(into events: inout [ProbeEvent]) -> UInt64 {
        var collector = EventCollector(events: [])
        swap(&collector.events, &events)
        defer { swap(&collector.events, &events) }
        return drain(to: &collector)
    }

    /// Hands every record written so far to `visitor`, in the order ``drain(into:)`` appends their
    /// events, and returns how many events were dropped since the last drain. Posts, deliveries and
    /// enqueues come as records read in place; the rare events, whole.
    /// - Parameter notAfter: Records stamped later stay for the next drain.
    @discardableResult
    package func drain<Visitor: ProbeRecordVisitor>(to visitor: inout Visitor, notAfter: UInt64 = .max) -> UInt64 {
        let limit = min(MonotonicClock.now() &+ Self.settleNanoseconds, notAfter)
        while MonotonicClock.now() < limit &+ Self.settleNanoseconds {}
        draining = rings.withLock { $0 }
        drainingRefs.removeAll(keepingCapacity: true)
        for ring in draining { drainingRefs.append(Unmanaged.passUnretained(ring)) }
        var lost: UInt64 = 0
        heads.removeAll(keepingCapacity: true)
        tails.removeAll(keepingCapacity: true)
        exited.removeAll(keepingCapacity: true)
        for ring in draining {
            exited.append(ring.closed.load(ordering: .acquiring))
            let total = ring.dropped.load(ordering: .acquiring)
            lost &+= total &- ring.droppedReported
            ring.droppedReported = total
            heads.append(ring.published.load(ordering: .acquiring))
            tails.append(ring.consumed.load(ordering: .relaxed))
        }
        if lost > 0 { visitor.visitDropped(lost) }
        merge(upTo: limit, to: &visitor)
        var emptied: [ObjectIdentifier] = []
        for (index, ring) in draining.enumerated() {
            ring.consume(upTo: tails[index])
            if exited[index] && tails[index] == heads[index] { emptied.append(ObjectIdentifier(ring)) }
        }
        if !emptied.isEmpty { release(emptied) }
        drainingRefs.removeAll(keepingCapacity: true)
        draining.removeAll(keepingCapacity: true)
        return lost
    }

    /// Takes records from the rings' heads, oldest first, while their time is at most `limit`.
    /// Runs of one ring's records older than every other ring's next are taken in one go (with a
    /// single ring, everything due), ties going to the ring listed first.
    private func merge<Visitor: ProbeRecordVisitor>(upTo limit: UInt64, to visitor: inout Visitor) {
        nextTimes.removeAll(keepingCapacity: true)
        for index in draining.indices {
            nextTimes.append(
                drainingRefs[index]._withUnsafeGuaranteedRef {
                    Self.nextTime(in: $0, from: &tails[index], to: heads[index], upTo: limit)
                })
        }
        while true {
            var oldest = -1
            var oldestTime = UInt64.max
            var runnerUp = -1
            var runnerUpTime = UInt64.max
            for index in nextTimes.indices where nextTimes[index] < runnerUpTime {
                if nextTimes[index] < oldestTime {
                    (runnerUp, runnerUpTime) = (oldest, oldestTime)
                    (oldest, oldestTime) = (index, nextTimes[index])
                } else {
                    (runnerUp, runnerUpTime) = (index, nextTimes[index])
                }
            }
            guard oldest >= 0 else { return }
            let head = heads[oldest]
            var tail = tails[oldest]
            nextTimes[oldest] = drainingRefs[oldest]._withUnsafeGuaranteedRef { ring in
                var time: UInt64
                repeat {
                    let record = ring.record(at: tail)
                    tail &+= 1
                    if record.kind == .boxed {
                        visitor.visit((record.takeBox() as! ProbeEventBox).event, center: record.center)
                    } else {
                        visitor.visit(ProbeDrainedRecord(record, ring: ring))
                    }
                    time = Self.nextTime(in: ring, from: &tail, to: head, upTo: limit)
                } while time != .max && (time < runnerUpTime || (time == runnerUpTime && oldest < runnerUp))
                return time
            }
            tails[oldest] = tail
        }
    }

    /// The time of the next event in `ring` from `tail` (before `head`), reading the name
    /// definitions before it; `.max` when it has none due by `limit`.
    @inline(__always)
    private static func nextTime(
        in ring: ProbeRecordRing, from tail: inout UInt64, to head: UInt64, upTo limit: UInt64
    ) -> UInt64 {
        while tail != head {
            let record = ring.record(at: tail)
            guard record.kind == .nameDefined else {
                return record.timestamp <= limit ? record.timestamp : .max
            }
            ring.define(slot: record.nameSlot, as: (record.takeBox() as! ProbeNameBox).name)
            tail &+= 1
        }
        return .max
    }

    /// Lets go of the rings of exited threads, drained to their last record and drop.
    private func release(_ emptied: [ObjectIdentifier]) {
        let released = rings.withLock { rings in
            let released = rings.filter { emptied.contains(ObjectIdentifier($0)) }
            rings.removeAll { emptied.contains(ObjectIdentifier($0)) }
            return released
        }
        for ring in released { releasedDrops.add(ring.dropped.load(ordering: .acquiring), ordering: .relaxed) }
    }

    /// The rings not yet let go of.
    var ringCount: Int { rings.withLock { $0.count } }

    /// Every event dropped so far, drained or not: what the rings' drop counts add up to.
    package var droppedTotal: UInt64 {
        rings.withLock { rings in
            rings.reduce(releasedDrops.load(ordering: .relaxed)) { $0 &+ $1.dropped.load(ordering: .acquiring) }
        }
    }
}

/// What ``ProbeRecorder/drain(to:)`` hands each drained event to.
package protocol ProbeRecordVisitor {
    /// A post, delivery or enqueue, read in place.
    mutating func visit(_ record: ProbeDrainedRecord)
    /// Any other event, carried whole.
    mutating func visit(_ event: ProbeEvent)
    /// Any other event, carried whole, with the ``RecordingProbe/centerTag`` of the center it came
    /// from; by default handed to ``visit(_:)-(ProbeEvent)``.
    mutating func visit(_ event: ProbeEvent, center: UInt8)
    /// Events were dropped since the last drain: called once, before the records drained with them.
    mutating func visitDropped(_ count: UInt64)
}

extension ProbeRecordVisitor {
    package mutating func visitDropped(_ count: UInt64) {}
    package mutating func visit(_ event: ProbeEvent, center: UInt8) { visit(event) }
}

/// Builds the events ``ProbeRecorder/drain(into:)`` returns.
private struct EventCollector: ProbeRecordVisitor {
    var events: [ProbeEvent]

    mutating func visit(_ record: ProbeDrainedRecord) { events.append(record.event) }
    mutating func visit(_ event: ProbeEvent) { events.append(event) }
}
