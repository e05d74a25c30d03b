import Foundation
import NotifySystem
/// The probes attached to a center; replaced, never mutated, so posts read it with no lock held.
final class ProbeSet: Sendable {
    let entries: [(id: UInt64, probe: any NotifyProbe)]
    /// The first probe, called without walking the array: one probe is the common case.
    private let first: any NotifyProbe
    /// The recorders posts and deliveries are written into, first one apart: unretained (the
    /// probes in `entries` hold it), so a post does not retain and release it per event.
    private let recorder: Unmanaged<ProbeRecorder>?
    private let recorderID: UInt64
    /// The first recorder's ``RecordingProbe/centerTag``.
    private let recorderTag: UInt8
    private let otherRecorders: [(recorder: ProbeRecorder, tag: UInt8)]
    /// The probes without a recorder, which receive posts and deliveries as ``ProbeEvent``s.
    private let receivers: [any NotifyProbe]
    /// True when the first recorder is the only place posts and deliveries go.
    private let recorderOnly: Bool
    /// The first probe that runs around posts and handlers, if any.
    let contextProbe: (any NotifyContextProbe)?

    init?(entries: [(id: UInt64, probe: any NotifyProbe)]) {
        guard let first = entries.first else { return nil }
        self.entries = entries
        self.first = first.probe
        let recorders = entries.compactMap { ($0.probe as? any RecordingProbe).map { ($0.recorder, $0.centerTag) } }
        recorder = recorders.first.map { Unmanaged.passUnretained($0.0) }
        recorderID = recorders.first?.0.id ?? 0
        recorderTag = recorders.first?.1 ?? 0
        otherRecorders = recorders.dropFirst().map { (recorder: $0.0, tag: $0.1) }
        receivers = entries.filter { !($0.probe is any RecordingProbe) }.map(\.probe)
        recorderOnly = recorders.count == 1 && receivers.isEmpty
        contextProbe = entries.lazy.compactMap { $0.probe as? any NotifyContextProbe }.first
    }

    /// The same probes in an object of its own. A posting thread's stripe keeps one, so the retain
    /// and release a probed post does write a count no other stripe's posts write.
    var privateCopy: ProbeSet { ProbeSet(entries: entries)! }

    func emit(
        _ kind: ProbeEvent.Kind, timestamp: UInt64 = MonotonicClock.now(),
        thread: UInt64 = ThreadContext.current.thread.id
    ) {
        let event = ProbeEvent(timestamp: timestamp, thread: thread, kind: kind)
        first.receive(event)
        var index = 1
        while index < entries.count {
            entries[index].probe.receive(event)
            index += 1
        }
    }

    /// Makes the calling thread's rings, if this is its first probed post: done before the post
    /// reads its clock, so the first handler's duration does not include making them. The first
    /// recorder's comes last, so the thread's ring cache holds it for the post's first record.
    @inline(__always)
    func prepareRings(_ context: ThreadContext) {
        if !otherRecorders.isEmpty { prepareOtherRings(context) }
        if let recorder { _ = context.ring(for: recorder, id: recorderID) }
    }

    @inline(never)
    private func prepareOtherRings(_ context: ThreadContext) {
        for other in otherRecorders { context.withRing(for: other.recorder) { _ in } }
    }

    /// Writes a post or delivery into the calling thread's rings, and hands it to the probes
    /// without a recorder as an event.
    @inline(__always)
    func emit(_ record: ProbeRecord, named name: Notification.Name, context: ThreadContext) {
        emit(named: name, context: context) { slot, center in
            var record = record
            record.nameSlot = slot
            record.center = center
            return record
        }
    }

    /// ``emit(_:named:context:)`` for the record `make` builds, given its name slot and center tag:
    /// built straight into the first recorder's ring.
    @inline(__always)
    func emit(
        named name: Notification.Name, context: ThreadContext,
        _ make: (_ nameSlot: UInt16, _ center: UInt8) -> ProbeRecord
    ) {
        if let recorder {
            // `make` is called here, not in a closure handed on: inlined into the post, the record
            // is stored field by field into the ring.
            let ring = context.ring(for: recorder, id: recorderID)
            if let (slot, nameSlot) = ring._withUnsafeGuaranteedRef({ $0.reserve(named: name) }) {
                slot.initialize(to: make(nameSlot, recorderTag))
                ring._withUnsafeGuaranteedRef { $0.publishSlot() }
            }
            if recorderOnly { return }
        }
        emitElsewhere(make(0, 0), named: name, context: context)
    }

    @inline(never)
    private func emitElsewhere(_ record: ProbeRecord, named name: Notification.Name, context: ThreadContext) {
        for other in otherRecorders {
            var record = record
            record.center = other.tag
            context.withRing(for: other.recorder) { $0.appendEvent(record, named: name) }
        }
        guard !receivers.isEmpty else { return }
        let event = record.event(thread: context.thread.id, name: name.rawValue)
        for probe in receivers { probe.receive(event) }
    }
}

extension NotifyCenter {
    /// Starts sending this center's events to `probe`.
    ///
    /// Before any live event, the probe receives a `registered` event with `preexisting` set for
    /// every live registration, so a probe attached late still sees the whole observer table.
    /// Snapshot and attachment happen under the center's lock: no registration is missed or
    /// reported twice.
    ///
    /// - Returns: The attachment; the probe stays attached until it is detached or released.
    public func attach(_ probe: any NotifyProbe) -> NotifyProbeAttachment {
        // Measured once per process, here rather than inside the first probed post.
        _ = TickClock.rate
        let id = locked { () -> UInt64 in
            let id = (probes?.entries.map(\.id).max() ?? 0) + 1
            let snapshot = ProbeSet(entries: [(id, probe)])!
            // Each on the thread that made it, with the deliveries no probe saw, then what befell it
            // in the order it happened: a token released after its object filter died follows that death.
            var deadFilters: [Registration] = []
            for (registration, name) in table.all {
                let thread = registration.registeringThread
                let filterDied = registration.objectFilterDied
                let released = registration.tokenReleased
                snapshot.emit(
                    .registered(
                        registration.info(preexisting: true, name: name, tokenDropped: released && !filterDied)),
                    thread: thread)
                guard filterDied else { continue }
                deadFilters.append(registration)
                snapshot.emit(
                    .objectDead(registration: registration.id, aliveAt: objectFilterSeenAlive(registration)),
                    thread: thread)
                if released { snapshot.emit(.tokenDropped(registration: registration.id), thread: thread) }
            }
            for registration in messages.all {
                emitMessageRegistered(registration, to: snapshot, preexisting: true)
            }
            if let old = probes {
                table.garbage.append(old)
                table.garbage.sweepsPostCopies = true
                // The probes already attached learn the deaths no look has told them yet.
                for registration in deadFilters where !reportedFilterDeaths.contains(registration.id) {
                    old.emit(
                        .objectDead(registration: registration.id, aliveAt: objectFilterSeenAlive(registration)),
                        thread: registration.registeringThread)
                }
            }
            // Every probe now knows these deaths; later looks report only new ones.
            reportedFilterDeaths = Set(deadFilters.map(\.id))
            probes = ProbeSet(entries: (probes?.entries ?? []) + [(id, probe)])
            tableChanged()
            return id
        }
        return NotifyProbeAttachment { [weak self] in
            self?.detachProbe(id: id)
        }
    }

    private func detachProbe(id: UInt64) {
        locked {
            let remaining = (probes?.entries ?? []).filter { $0.id != id }
            if let old = probes {
                table.garbage.append(old)
                table.garbage.sweepsPostCopies = true
            }
            probes = ProbeSet(entries: remaining)
            tableChanged()
        }
    }

    /// Marks a moment in the app's life, such as "cart screen closed" or a test step, for probes.
    ///
    /// Leak rules compare registrations between checkpoints: registrations of a screen that grow
    /// from one "screen closed" to the next are a leak, and a name observed through several
    /// checkpoints but never posted is suspicious. Instruments calls the same idea Mark Generation.
    /// The latest checkpoints are remembered even with no probe attached, for a probe attached later.
    public func checkpoint(_ label: String, file: StaticString = #fileID, line: UInt = #line) {
        let callsite = ProbeEvent.Callsite(file: file, line: line)
        let thread = ThreadContext.currentID
        // Under the lock, so that a checkpoint is either remembered as unwatched or in the
        // attached probes' records before an attach or detach completes, and times follow that order.
        lock.withLock {
            let now = MonotonicClock.now()
            if table.keepsHistory {
                rememberedCheckpoints.remember(
                    NotifyHistory.Checkpoint(
                        label: label, callsite: callsite, thread: thread, timestamp: now, watched: probes != nil))
            }
            probes?.emit(.checkpoint(label: label, callsite: callsite), timestamp: now, thread: thread)
        }
    }

    /// True while at least one probe is attached.
    public var isProbed: Bool {
        lock.withLock { probes != nil }
    }
}
