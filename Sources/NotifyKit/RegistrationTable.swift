import Foundation
import Synchronization

/// The registrations of one name (or of the wildcard name), in registration order.
///
/// Ids only grow and removal keeps order, so a registration is found by binary search. A removed
/// registration leaves the array at once: its block, and everything the block captured, must be
/// released when removal returns, as Foundation does.
struct Bucket {
    var entries: ContiguousArray<Registration> = []
    /// The name's slot, which registrations and tokens keep instead of the name.
    var slot: UInt32 = RegistrationTable.wildcardSlot

    /// The entry with this id, by binary search; the newest entry is tried first, since a
    /// registration is most often removed soon after it was added.
    func index(of id: UInt64) -> Int? {
        if let last = entries.last, last.id == id { return entries.count - 1 }
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            let candidate = entries[mid].id
            if candidate == id { return mid }
            if candidate < id { low = mid + 1 } else { high = mid }
        }
        return nil
    }
}

/// Every live registration of a center, indexed for posting and for removal by observer.
///
/// Each observed name owns a slot, a small number: registrations and tokens keep the slot (4 bytes)
/// rather than the name (16). Slots of names nobody observes any more are reused; a stale token
/// then finds no registration with its id under that slot (ids are never reused), so it removes
/// nothing. Posts look buckets up by name, as before.
struct RegistrationTable {
    /// The slot that stands for "every name".
    static let wildcardSlot = UInt32.max

    var named: [Notification.Name: Bucket] = [:]
    private var slotNames: [Notification.Name?] = []
    private var freeSlots: [UInt32] = []
    var wildcard = Bucket()
    /// Target and owner registrations by the observer's identity; entries are confirmed by a weak
    /// load before use, since identities of dead observers are reused.
    var byObserver: [ObjectIdentifier: [UInt64: Registration]] = [:]
    var liveCount = 0
    var lastID: UInt64 = 0
    var serials = ObjectSerials()
    /// What the table let go of while locked. A registration's closure may own tokens or objects
    /// whose deinit calls back into the center, so nothing may be released under the lock.
    var garbage = Garbage()

    mutating func takeGarbage() -> Garbage {
        guard !garbage.isEmpty else { return Garbage() }
        let taken = garbage
        garbage = Garbage()
        return taken
    }

    mutating func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// The slot of `name` (the wildcard slot for nil) and its bucket's position, claiming a slot and
    /// an empty bucket if the name is new. The position stays valid until the table next changes.
    mutating func claimSlot(
        for name: Notification.Name?
    ) -> (slot: UInt32, bucket: Dictionary<Notification.Name, Bucket>.Index?) {
        guard let name else { return (Self.wildcardSlot, nil) }
        if let index = named.index(forKey: name) { return (named.values[index].slot, index) }
        let slot: UInt32
        if let free = freeSlots.popLast() {
            slot = free
            slotNames[Int(slot)] = name
        } else {
            slot = UInt32(slotNames.count)
            slotNames.append(name)
        }
        named[name] = Bucket(slot: slot)
        return (slot, named.index(forKey: name))
    }

    /// The slot of `name` if it is observed now; the wildcard slot for nil.
    func existingSlot(of name: Notification.Name?) -> UInt32? {
        guard let name else { return Self.wildcardSlot }
        return named[name]?.slot
    }

    /// The name a slot stands for; nil for the wildcard slot.
    func name(ofSlot slot: UInt32) -> Notification.Name? {
        slot == Self.wildcardSlot || Int(slot) >= slotNames.count ? nil : slotNames[Int(slot)]
    }

    /// Adds `registration` to the bucket `claimSlot(for:)` returned.
    mutating func insert(_ registration: Registration, bucket: Dictionary<Notification.Name, Bucket>.Index?) {
        if let observer = registration.observer {
            registration.observerSerial = serials.serial(registering: observer)
        }
        if let object = registration.object {
            registration.objectSerial = UInt32(truncatingIfNeeded: serials.serial(registering: object))
        }
        if let bucket {
            named.values[bucket].entries.append(registration)
        } else {
            wildcard.entries.append(registration)
        }
        if let key = registration.observerKey {
            byObserver[key, default: [:]][registration.id] = registration
        }
        liveCount += 1
    }

    /// Where a registration sits: its bucket (nil for the wildcard bucket) and index there.
    private typealias Place = (bucket: Dictionary<Notification.Name, Bucket>.Index?, index: Int)

    /// Finds the registration with this id in this slot, with one lookup of its name.
    private func place(of id: UInt64, slot: UInt32) -> Place? {
        guard let name = name(ofSlot: slot) else {
            return wildcard.index(of: id).map { (nil, $0) }
        }
        guard let bucket = named.index(forKey: name), let index = named.values[bucket].index(of: id) else {
            return nil
        }
        return (bucket, index)
    }

    private func registration(at place: Place) -> Registration {
        place.bucket.map { named.values[$0].entries[place.index] } ?? wildcard.entries[place.index]
    }

    func find(id: UInt64, slot: UInt32) -> Registration? {
        place(of: id, slot: slot).map(registration(at:))
    }

    /// Ends the registration with this id in this slot; nil when there is none or `shouldEnd`
    /// declines it.
    mutating func remove(id: UInt64, slot: UInt32, where shouldEnd: (Registration) -> Bool) -> Registration? {
        guard let place = place(of: id, slot: slot) else { return nil }
        let registration = registration(at: place)
        guard shouldEnd(registration), end(registration, at: place) else { return nil }
        return registration
    }

    /// Ends `registration`; returns false when it had already ended.
    mutating func remove(_ registration: Registration) -> Bool {
        guard let place = place(of: registration.id, slot: registration.slot) else { return false }
        return end(registration, at: place)
    }

    /// Takes the registration at `place` out of its bucket, freeing the name's slot when the bucket
    /// empties; the registration stays alive in `garbage` until the center is unlocked.
    private mutating func end(_ registration: Registration, at place: Place) -> Bool {
        guard registration.isActive.exchange(false, ordering: .acquiringAndReleasing) else { return false }
        garbage.append(registration)
        if let bucket = place.bucket {
            named.values[bucket].entries.remove(at: place.index)
            if named.values[bucket].entries.isEmpty {
                named.remove(at: bucket)
                slotNames[Int(registration.slot)] = nil
                freeSlots.append(registration.slot)
            }
        } else {
            wildcard.entries.remove(at: place.index)
        }
        forget(registration)
        return true
    }

    private mutating func forget(_ registration: Registration) {
        liveCount -= 1
        if let key = registration.observerKey {
            byObserver[key]?[registration.id] = nil
            if byObserver[key]?.isEmpty == true { byObserver[key] = nil }
        }
    }

    /// Every live registration in registration order, with the name it observes.
    var all: [(registration: Registration, name: Notification.Name?)] {
        var result = wildcard.entries.map { (registration: $0, name: Notification.Name?.none) }
        for (name, bucket) in named {
            result.append(contentsOf: bucket.entries.map { (registration: $0, name: Optional(name)) })
        }
        return result.sorted { $0.registration.id < $1.registration.id }
    }
}

/// Objects to release once the center is unlocked: one inline (a removal usually ends one
/// registration, and this keeps it free of allocation), the rest in an array.
struct Garbage {
    private var first: AnyObject?
    private var rest: [AnyObject] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ object: AnyObject) {
        if first == nil {
            first = object
        } else {
            rest.append(object)
        }
    }
}
