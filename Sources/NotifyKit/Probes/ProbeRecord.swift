/// One probed event as a posting thread writes it: a fixed-size value with no references, so
/// writing it into the thread's ``ProbeRecordRing`` retains nothing and allocates nothing.
///
/// Posts and deliveries, the events of every probed post, are written field by field; every
/// other event (registrations, removals, queue activity: rare, and free to allocate) travels as a
/// retained ``ProbeEvent`` box. A name is a slot of the ring's name table, defined by a
/// `nameDefined` record earlier in the same ring; types and callsites are process-stable
/// pointers. The words are named by what a post uses them for; a delivery's accessors say what
/// it keeps in them.
@usableFromInline
struct ProbeRecord {
    @usableFromInline
    enum Kind: UInt8 {
        case posted, delivered
        /// A typed message queued for one observer: `matched` is the pending count, `hasUserInfo`
        /// whether the oldest was dropped.
        case messageEnqueued
        /// `box` holds a retained ``ProbeEventBox``.
        case boxed
        /// `box` holds a retained ``ProbeNameBox``: the name of `nameSlot` from here on.
        case nameDefined
    }

    @usableFromInline var timestamp: UInt64
    @usableFromInline var postID: UInt64
    /// Posted: the parent post; delivered: the registration.
    @usableFromInline var parentPostID: UInt64
    /// Posted: the registrations matched; delivered: the posting thread.
    @usableFromInline var matched: UInt64
    /// Posted: the object's address; delivered: the handler's start.
    @usableFromInline var objectAddress: UInt64
    /// Posted: the object's serial; delivered: the wait before the start.
    @usableFromInline var objectSerial: UInt64
    /// Posted: the object's type (nil when there is no object); boxed and nameDefined: the box.
    @usableFromInline var pointer: UnsafeRawPointer?
    @usableFromInline var file: StaticString
    @usableFromInline var kind: Kind
    @usableFromInline var target: ProbeEvent.TargetKind
    @usableFromInline var message: ProbeEvent.MessageKind?
    @usableFromInline var hasUserInfo: Bool
    /// Which of the recorder's centers wrote it (see ``RecordingProbe/centerTag``): a byte the
    /// fields' alignment leaves free, so a record is no larger for it. Set as the record is built:
    /// a store into a record already written makes the compiler build it on the stack and copy it.
    @usableFromInline var center: UInt8 = 0
    @usableFromInline var nameSlot: UInt16
    @usableFromInline var depth: UInt32
    @usableFromInline var line: UInt32

    @inline(__always)
    static func posted(
        at timestamp: UInt64, postID: UInt64, object: ProbeEvent.ObjectRef?, hasUserInfo: Bool, matched: Int,
        depth: Int,
        parentPostID: UInt64, file: StaticString, line: UInt, message: ProbeEvent.MessageKind?, nameSlot: UInt16 = 0,
        center: UInt8 = 0
    ) -> ProbeRecord {
        ProbeRecord(
            timestamp: timestamp, postID: postID, parentPostID: parentPostID, matched: UInt64(matched),
            objectAddress: UInt64(object?.address ?? 0), objectSerial: object?.serial ?? 0,
            pointer: object.map { unsafeBitCast($0.type, to: UnsafeRawPointer.self) }, file: file, kind: .posted,
            target: .posting, message: message, hasUserInfo: hasUserInfo, center: center, nameSlot: nameSlot,
            depth: UInt32(truncatingIfNeeded: depth), line: UInt32(truncatingIfNeeded: line))
    }

    @inline(__always)
    static func delivered(
        at end: UInt64, postID: UInt64, registration: UInt64, postingThread: UInt64, target: ProbeEvent.TargetKind,
        start: UInt64, wait: UInt64, depth: Int, nameSlot: UInt16 = 0, center: UInt8 = 0
    ) -> ProbeRecord {
        ProbeRecord(
            timestamp: end, postID: postID, parentPostID: registration, matched: postingThread, objectAddress: start,
            objectSerial: wait, pointer: nil, file: "", kind: .delivered, target: target, message: nil,
            hasUserInfo: false, center: center, nameSlot: nameSlot, depth: UInt32(truncatingIfNeeded: depth), line: 0)
    }

    @inline(__always)
    static func messageEnqueued(
        at timestamp: UInt64, postID: UInt64, registration: UInt64, pending: Int, droppedOldest: Bool
    ) -> ProbeRecord {
        ProbeRecord(
            timestamp: timestamp, postID: postID, parentPostID: registration, matched: UInt64(pending),
            objectAddress: 0, objectSerial: 0, pointer: nil, file: "", kind: .messageEnqueued, target: .task,
            message: nil, hasUserInfo: droppedOldest, nameSlot: 0, depth: 0, line: 0)
    }

    /// A record carrying `box`, retained until the reader takes it.
    static func carrying(_ box: AnyObject, kind: Kind, timestamp: UInt64, nameSlot: UInt16 = 0) -> ProbeRecord {
        ProbeRecord(
            timestamp: timestamp, postID: 0, parentPostID: 0, matched: 0, objectAddress: 0, objectSerial: 0,
            pointer: UnsafeRawPointer(Unmanaged.passRetained(box).toOpaque()), file: "", kind: kind, target: .posting,
            message: nil, hasUserInfo: false, nameSlot: nameSlot, depth: 0, line: 0)
    }

    /// Takes back the box a boxed or nameDefined record holds; once per record.
    func takeBox() -> AnyObject {
        Unmanaged<AnyObject>.fromOpaque(pointer!).takeRetainedValue()
    }

    /// The event a posted or delivered record stands for, written on thread `thread`.
    func event(thread: UInt64, name: String) -> ProbeEvent {
        switch kind {
        case .posted:
            let object = pointer.map {
                ProbeEvent.ObjectRef(
                    address: UInt(objectAddress), type: unsafeBitCast($0, to: (any AnyObject.Type).self),
                    serial: objectSerial)
            }
            let post = ProbeEvent.Post(
                postID: postID, name: name, object: object, hasUserInfo: hasUserInfo, matched: Int(matched),
                depth: Int(depth), parentPostID: parentPostID,
                callsite: ProbeEvent.Callsite(file: file, line: UInt(line)),
                message: message)
            return ProbeEvent(timestamp: timestamp, thread: thread, kind: .posted(post))
        case .delivered:
            let start = objectAddress
            let delivery = ProbeEvent.Delivery(
                postID: postID, registration: parentPostID, name: name, postingThread: matched, target: target,
                start: start, duration: timestamp > start ? timestamp - start : 0, wait: objectSerial,
                depth: Int(depth))
            return ProbeEvent(timestamp: timestamp, thread: thread, kind: .delivered(delivery))
        case .messageEnqueued:
            let enqueue = ProbeEvent.MessageEnqueue(
                postID: postID, registration: parentPostID, pending: Int(matched), droppedOldest: hasUserInfo)
            return ProbeEvent(timestamp: timestamp, thread: thread, kind: .messageEnqueued(enqueue))
        case .boxed, .nameDefined:
            preconditionFailure("a boxed record carries its event")
        }
    }
}

/// A rare event carried whole through a ring.
final class ProbeEventBox {
    let event: ProbeEvent
    init(_ event: ProbeEvent) { self.event = event }
}

/// A name a ring's slot stands for from its `nameDefined` record on.
final class ProbeNameBox {
    let name: String
    init(_ name: String) { self.name = name }
}

/// A posted, delivered or enqueue record as ``ProbeRecorder/drain(to:)`` hands it over: its fields
/// read in place, with no ``ProbeEvent`` built, for a drainer that encodes straight from them.
///
/// Read it during the visit it is handed to: ``name`` reads the ring the record came from.
package struct ProbeDrainedRecord {
    package enum Kind { case posted, delivered, messageEnqueued }

    @usableFromInline let record: ProbeRecord
    private unowned(unsafe) let ring: ProbeRecordRing
    /// ``NotifyThread/id`` of the thread that wrote it.
    package let thread: UInt64
    /// Stands for ``name``: equal serials, equal names, across every ring and drain of the
    /// process; 0 for an enqueue. A key for a cache of names that compares no strings.
    package let nameSerial: UInt64

    init(_ record: ProbeRecord, ring: ProbeRecordRing) {
        self.record = record
        self.ring = ring
        thread = ring.thread
        nameSerial = record.kind == .messageEnqueued ? 0 : ring.nameSerial(ofSlot: record.nameSlot)
    }

    /// The notification's name (posted and delivered); empty for an enqueue.
    package var name: String { nameSerial == 0 ? "" : ring.slotNames[Int(record.nameSlot)] }

    @inlinable package var kind: Kind {
        switch record.kind {
        case .posted: .posted
        case .delivered: .delivered
        default: .messageEnqueued
        }
    }
    @inlinable package var timestamp: UInt64 { record.timestamp }
    @inlinable package var postID: UInt64 { record.postID }
    /// The ``RecordingProbe/centerTag`` of the center that wrote it.
    @inlinable package var center: UInt8 { record.center }

    // Posted.
    @inlinable package var object: ProbeEvent.ObjectRef? {
        record.pointer.map {
            ProbeEvent.ObjectRef(
                address: UInt(record.objectAddress), type: unsafeBitCast($0, to: (any AnyObject.Type).self),
                serial: record.objectSerial)
        }
    }
    @inlinable package var hasUserInfo: Bool { record.hasUserInfo }
    @inlinable package var matched: Int { Int(record.matched) }
    @inlinable package var depth: Int { Int(record.depth) }
    @inlinable package var parentPostID: UInt64 { record.parentPostID }
    @inlinable package var callsite: ProbeEvent.Callsite {
        ProbeEvent.Callsite(file: record.file, line: UInt(record.line))
    }
    /// The callsite's file as written (`#fileID`), and its line: a key for a cache of callsites.
    @inlinable package var callsiteFile: StaticString { record.file }
    @inlinable package var callsiteLine: UInt { UInt(record.line) }
    @inlinable package var message: ProbeEvent.MessageKind? { record.message }

    // Delivered.
    @inlinable package var registration: UInt64 { record.parentPostID }
    @inlinable package var postingThread: UInt64 { record.matched }
    @inlinable package var target: ProbeEvent.TargetKind { record.target }
    @inlinable package var start: UInt64 { record.objectAddress }
    @inlinable package var duration: UInt64 {
        record.timestamp > record.objectAddress ? record.timestamp - record.objectAddress : 0
    }
    @inlinable package var wait: UInt64 { record.objectSerial }

    // Enqueued.
    @inlinable package var pending: Int { Int(record.matched) }
    @inlinable package var droppedOldest: Bool { record.hasUserInfo }

    /// The event the record stands for, as ``ProbeRecorder/drain(into:)`` builds it.
    package var event: ProbeEvent { record.event(thread: thread, name: name) }
}
