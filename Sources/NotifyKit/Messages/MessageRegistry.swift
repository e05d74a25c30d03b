import Foundation
import Synchronization
import NotifySystem

/// The typed message registrations of one center, beside its ``RegistrationTable`` and guarded by
/// the same lock. Keyed by the message type's identity, so messages and `Notification`s never meet.
final class MessageRegistry {
    /// The registrations of one message type, each list in registration order.
    struct Bucket {
        var subjects: ContiguousArray<MessageRegistration> = []
        var wildcard: ContiguousArray<MessageRegistration> = []

        mutating func remove(id: UInt64) -> MessageRegistration? {
            if let index = wildcard.lastIndex(where: { $0.id == id }) { return wildcard.remove(at: index) }
            if let index = subjects.lastIndex(where: { $0.id == id }) { return subjects.remove(at: index) }
            return nil
        }
    }

    /// One message type's bucket. Tokens keep it, so removal reaches the bucket without hashing.
    ///
    /// Entries stay (one per message type ever observed), so observing and removing again reuses
    /// their storage instead of allocating.
    final class Entry: @unchecked Sendable {  // `bucket` is guarded by the center's lock
        let key: ObjectIdentifier
        @exclusivity(unchecked) var bucket = Bucket()
        /// The message type's counter index in the center's history; 0 until the type is observed.
        @exclusivity(unchecked) var counterIndex: UInt32 = 0

        init(key: ObjectIdentifier) {
            self.key = key
        }
    }

    /// Every entry, by message type: unretained, so a post reads its bucket with no retain and
    /// release of the entry (`retained` keeps them).
    @exclusivity(unchecked) private var entries: [ObjectIdentifier: Unmanaged<Entry>] = [:]
    @exclusivity(unchecked) private var retained: [Entry] = []
    @exclusivity(unchecked) private(set) var count = 0
    /// The entry `insert` used last: a type observed again and again is found without hashing.
    @exclusivity(unchecked) private var lastEntry: Entry?

    /// Adds the registration to its type's entry, which it returns.
    @discardableResult
    func insert(_ registration: MessageRegistration, history: CenterHistory) -> Entry {
        let entry = entry(for: registration.key)
        if entry.counterIndex == 0 { entry.counterIndex = history.counterIndex(forMessage: registration.messageType) }
        if registration.hasSubjectFilter {
            entry.bucket.subjects.append(registration)
        } else {
            entry.bucket.wildcard.append(registration)
        }
        count += 1
        return entry
    }

    @inline(__always)
    private func entry(for key: ObjectIdentifier) -> Entry {
        if let lastEntry, lastEntry.key == key { return lastEntry }
        let entry = entries[key]?.takeUnretainedValue() ?? makeEntry(for: key)
        lastEntry = entry
        return entry
    }

    @inline(never)
    private func makeEntry(for key: ObjectIdentifier) -> Entry {
        let entry = Entry(key: key)
        entries[key] = Unmanaged.passUnretained(entry)
        retained.append(entry)
        return entry
    }

    /// The registrations of one message type, if it was ever observed, and its counter index.
    @inline(__always)
    func bucket(for key: ObjectIdentifier) -> (Bucket, counterIndex: UInt32)? {
        entries[key]?._withUnsafeGuaranteedRef { ($0.bucket, $0.counterIndex) }
    }

    /// Takes the registration out; the caller deactivates it once the lock is released.
    func remove(id: UInt64, key: ObjectIdentifier) -> MessageRegistration? {
        guard let entry = entries[key]?.takeUnretainedValue() else { return nil }
        return remove(id: id, from: entry)
    }

    /// Takes the registration out of `entry`, one of this registry's.
    func remove(id: UInt64, from entry: Entry) -> MessageRegistration? {
        guard let removed = entry.bucket.remove(id: id) else { return nil }
        count -= 1
        return removed
    }

    /// Every registration in registration order.
    var all: [MessageRegistration] {
        retained.flatMap { $0.bucket.subjects + $0.bucket.wildcard }.sorted { $0.id < $1.id }
    }

    /// A center going away ends its message registrations: queued async messages are dropped and
    /// sequences end. Tokens may outlive the center and keep entries: those let go of their bucket.
    deinit {
        for entry in retained {
            for registration in entry.bucket.subjects { registration.deactivate() }
            for registration in entry.bucket.wildcard { registration.deactivate() }
            entry.bucket = Bucket()
        }
    }
}

extension NotifyCenter {
    /// Adds a registration made by `make` (given its id) and reports it to probes; returns it with
    /// the registry entry of its type.
    func registerMessage<R: MessageRegistration>(_ make: (UInt64) -> R) -> (
        registration: R, entry: MessageRegistry.Entry
    ) {
        lock.lock()
        defer { lock.unlock() }
        let registration = make(table.nextID())
        return (registration, insertMessage(registration))
    }

    /// Gives `registration`, made with no id, its id, adds it and returns its token. Non-generic,
    /// and called from code specialised for the message type, so nothing looks up type metadata.
    @usableFromInline
    func addMessageObserver(_ registration: MessageRegistration) -> ObservationToken {
        lock.lock()
        registration.id = table.nextID()
        let entry = insertMessage(registration)
        lock.unlock()
        return makeToken(for: registration, in: entry)
    }

    /// Must be called with `lock` held.
    private func insertMessage(_ registration: MessageRegistration) -> MessageRegistry.Entry {
        if let subject = registration.subject {
            registration.subjectSerial = table.serials.serial(registering: subject)
        }
        let entry = messages.insert(registration, history: recordedHistory)
        noteSiteChange(of: registration, by: 1, at: registration.registeredAt)
        if let probes { emitMessageRegistered(registration, to: probes, preexisting: false) }
        return entry
    }

    /// Must be called with `lock` held.
    @inline(__always)
    private func noteSiteChange(of registration: MessageRegistration, by delta: Int, at timestamp: UInt64) {
        guard table.keepsHistory else { return }
        let key = SiteCountLog.key(
            nameKey: UInt(bitPattern: registration.key) | 1 << 63, file: registration.file, line: registration.line)
        if table.sites.noteLast(key, delta: delta, at: timestamp) { return }
        table.sites.note(
            key, name: TypeNames.name(of: registration.messageType), file: registration.file,
            line: registration.line, delta: delta, at: timestamp)
    }

    /// Ends one message registration; false when it had already ended.
    @discardableResult
    func endMessageRegistration(id: UInt64, key: ObjectIdentifier, reason: ProbeEvent.RemovalReason) -> Bool {
        lock.lock()
        let registration = messages.remove(id: id, key: key)
        return endedMessageRegistration(registration, reason: reason)
    }

    /// Ends one message registration of `entry`, an entry of this center's; false when it had
    /// already ended.
    @discardableResult
    func endMessageRegistration(
        id: UInt64, in entry: MessageRegistry.Entry, reason: ProbeEvent.RemovalReason,
        callsite: ProbeEvent.Callsite? = nil
    ) -> Bool {
        lock.lock()
        let registration = messages.remove(id: id, from: entry)
        return endedMessageRegistration(registration, reason: reason, callsite: callsite)
    }

    /// Reports a removal and unlocks, then deactivates: called with `lock` held.
    @inline(__always)
    private func endedMessageRegistration(
        _ registration: MessageRegistration?, reason: ProbeEvent.RemovalReason, callsite: ProbeEvent.Callsite? = nil
    ) -> Bool {
        guard let registration else {
            lock.unlock()
            return false
        }
        if let probes { emitMessageRemoved(registration, reason: reason, callsite: callsite, to: probes) }
        if table.keepsHistory { noteSiteChange(of: registration, by: -1, at: ThreadContext.stamp()) }
        lock.unlock()
        registration.deactivate()
        return true
    }

    /// The registrations of one message type, read under the lock: the copies cost two retains.
    /// With them, the type's counter index (0 for a type never observed).
    @inline(__always)
    func messageBucket(for key: ObjectIdentifier) -> (MessageRegistry.Bucket?, ProbeSet?, counterIndex: UInt32) {
        lock.lock()
        let found = messages.bucket(for: key)
        let probes = self.probes
        lock.unlock()
        return (found?.0, probes, found?.counterIndex ?? 0)
    }

    /// Adds an unwatched message post, and the deliveries it made on the posting thread, to the
    /// thread's counters. A type never observed gets its counter index here.
    @inline(__always)
    func countUnwatchedMessage(_ type: any Any.Type, counterIndex: UInt32, deliveries: UInt64, reached: Bool) {
        guard countingUnwatched.load(ordering: .relaxed) else { return }
        let index = counterIndex != 0 ? counterIndex : recordedHistory.counterIndex(forMessage: type)
        ThreadContext.currentUnretained._withUnsafeGuaranteedRef { context in
            context.counters(for: self)._withUnsafeGuaranteedRef {
                $0.countPost(index: index, deliveries: deliveries, reached: reached)
            }
        }
    }

    /// Adds a delivery made on the calling thread for an unwatched message post of another.
    func countHandedOffMessage(counterIndex: UInt32) {
        guard countingUnwatched.load(ordering: .relaxed) else { return }
        ThreadContext.currentUnretained._withUnsafeGuaranteedRef { context in
            context.counters(for: self)._withUnsafeGuaranteedRef { $0.countDelivery(index: counterIndex) }
        }
    }

    /// Calls `deliver` with each registration an unprobed post reaches, in calling order: the
    /// observers of `subject` (ending those whose subject died), then every live wildcard one.
    @inline(__always)
    func forEachReceiver(
        in bucket: MessageRegistry.Bucket, subject: AnyObject?, _ deliver: (MessageRegistration) -> Void
    ) {
        if let subject, !bucket.subjects.isEmpty {
            let subjectKey = UInt(bitPattern: ObjectIdentifier(subject))
            var i = 0
            while i < bucket.subjects.count {
                let registration = bucket.subjects[i]
                if accepts(registration, subjectKey: subjectKey) { deliver(registration) }
                i += 1
            }
        }
        var i = 0
        while i < bucket.wildcard.count {
            let registration = bucket.wildcard[i]
            if registration.isActive.load(ordering: .acquiring) { deliver(registration) }
            i += 1
        }
    }

    /// Whether a subject registration takes a post with subject address `subjectKey`; ends it
    /// when its subject has died.
    @inline(__always)
    func accepts(_ registration: MessageRegistration, subjectKey: UInt) -> Bool {
        guard registration.subjectKey == subjectKey else { return false }
        guard registration.subject != nil else {
            endMessageRegistration(id: registration.id, key: registration.key, reason: .objectDeallocated)
            return false
        }
        return registration.isActive.load(ordering: .acquiring)
    }
}
