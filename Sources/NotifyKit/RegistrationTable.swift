import Foundation
import Synchronization

/// The registrations of one name (or of the wildcard name), in registration order.
///
/// Ids only grow and removal keeps order, so a registration is found by binary search. A removed
/// registration leaves the array at once: its block, and everything the block captured, must be
/// released when removal returns, as Foundation does.
struct Bucket {
    var entries: ContiguousArray<Registration> = []

    var liveCount: Int { entries.count }

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

    /// Takes `registration` out; the caller keeps it alive until the center is unlocked.
    mutating func remove(_ registration: Registration) {
        guard let index = index(of: registration.id) else { return }
        entries.remove(at: index)
    }
}

/// Every live registration of a center, indexed for posting and for removal by observer.
struct RegistrationTable {
    var named: [Notification.Name: Bucket] = [:]
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

    mutating func insert(_ registration: Registration) {
        if let observer = registration.observer {
            registration.observerSerial = serials.serial(registering: observer)
        }
        if let object = registration.object {
            registration.objectSerial = UInt32(truncatingIfNeeded: serials.serial(registering: object))
        }
        if let name = registration.name {
            named[name, default: Bucket()].entries.append(registration)
        } else {
            wildcard.entries.append(registration)
        }
        if let key = registration.observerKey {
            byObserver[key, default: [:]][registration.id] = registration
        }
        liveCount += 1
    }

    /// Ends the registration with this id and name in one lookup; nil when there is none or
    /// `shouldEnd` declines it.
    mutating func remove(id: UInt64, name: Notification.Name?, where shouldEnd: (Registration) -> Bool) -> Registration? {
        if let name {
            guard let slot = named.index(forKey: name), let index = named.values[slot].index(of: id) else { return nil }
            let registration = named.values[slot].entries[index]
            guard shouldEnd(registration),
                  registration.isActive.exchange(false, ordering: .acquiringAndReleasing) else { return nil }
            garbage.append(registration)
            named.values[slot].entries.remove(at: index)
            if named.values[slot].entries.isEmpty { named.remove(at: slot) }
            forgetObserver(of: registration)
            return registration
        }
        guard let index = wildcard.index(of: id) else { return nil }
        let registration = wildcard.entries[index]
        guard shouldEnd(registration),
              registration.isActive.exchange(false, ordering: .acquiringAndReleasing) else { return nil }
        garbage.append(registration)
        wildcard.entries.remove(at: index)
        forgetObserver(of: registration)
        return registration
    }

    private mutating func forgetObserver(of registration: Registration) {
        liveCount -= 1
        if let key = registration.observerKey {
            byObserver[key]?[registration.id] = nil
            if byObserver[key]?.isEmpty == true { byObserver[key] = nil }
        }
    }

    func find(id: UInt64, name: Notification.Name?) -> Registration? {
        let bucket = name.map { named[$0] } ?? wildcard
        guard let bucket, let index = bucket.index(of: id) else { return nil }
        return bucket.entries[index]
    }

    /// Ends `registration`; returns false when it had already ended.
    mutating func remove(_ registration: Registration) -> Bool {
        guard registration.isActive.exchange(false, ordering: .acquiringAndReleasing) else { return false }
        garbage.append(registration)
        if let name = registration.name {
            if let index = named.index(forKey: name) {
                named.values[index].remove(registration)
                if named.values[index].entries.isEmpty { named.remove(at: index) }
            }
        } else {
            wildcard.remove(registration)
        }
        forgetObserver(of: registration)
        return true
    }

    /// Every live registration in registration order.
    var all: [Registration] {
        var result = Array(wildcard.entries)
        for bucket in named.values {
            result.append(contentsOf: bucket.entries)
        }
        return result.sorted { $0.id < $1.id }
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
