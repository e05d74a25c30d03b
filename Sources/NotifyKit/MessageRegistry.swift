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
            if let index = subjects.firstIndex(where: { $0.id == id }) { return subjects.remove(at: index) }
            if let index = wildcard.firstIndex(where: { $0.id == id }) { return wildcard.remove(at: index) }
            return nil
        }
    }

    @exclusivity(unchecked) var buckets: [ObjectIdentifier: Bucket] = [:]
    @exclusivity(unchecked) private(set) var count = 0

    func insert(_ registration: MessageRegistration) {
        if registration.hasSubjectFilter {
            buckets[registration.key, default: Bucket()].subjects.append(registration)
        } else {
            buckets[registration.key, default: Bucket()].wildcard.append(registration)
        }
        count += 1
    }

    /// Takes the registration out; the caller deactivates it once the lock is released.
    ///
    /// Empty buckets stay (one per message type ever observed), so observing and removing again
    /// reuses their storage instead of allocating.
    func remove(id: UInt64, key: ObjectIdentifier) -> MessageRegistration? {
        guard let index = buckets.index(forKey: key) else { return nil }
        // Mutated in place: a copy of the bucket would make the removal copy its arrays.
        guard let removed = buckets.values[index].remove(id: id) else { return nil }
        count -= 1
        return removed
    }

    /// Every registration in registration order.
    var all: [MessageRegistration] {
        buckets.values.flatMap { $0.subjects + $0.wildcard }.sorted { $0.id < $1.id }
    }

    /// A center going away ends its message registrations: queued async messages are dropped and
    /// sequences end.
    deinit {
        for bucket in buckets.values {
            for registration in bucket.subjects { registration.deactivate() }
            for registration in bucket.wildcard { registration.deactivate() }
        }
    }
}

extension NotifyCenter {
    /// Adds a registration made by `make` (given its id) and reports it to probes.
    func registerMessage<R: MessageRegistration>(_ make: (UInt64) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        let registration = make(table.nextID())
        if let subject = registration.subject {
            registration.subjectSerial = table.serials.serial(registering: subject)
        }
        messages.insert(registration)
        if let probes { emitMessageRegistered(registration, to: probes, preexisting: false) }
        return registration
    }

    /// Ends one message registration; false when it had already ended.
    @discardableResult
    func endMessageRegistration(id: UInt64, key: ObjectIdentifier, reason: NotifyRemovalReason) -> Bool {
        lock.lock()
        guard let registration = messages.remove(id: id, key: key) else {
            lock.unlock()
            return false
        }
        if let probes { emitMessageRemoved(registration, reason: reason, to: probes) }
        lock.unlock()
        registration.deactivate()
        return true
    }

    /// The registrations of one message type, read under the lock: the copies cost two retains.
    @inline(__always)
    func messageBucket(for key: ObjectIdentifier) -> (MessageRegistry.Bucket?, ProbeSet?) {
        lock.lock()
        let bucket = messages.buckets[key]
        let probes = self.probes
        lock.unlock()
        return (bucket, probes)
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
