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

    /// The entry with this id, by binary search.
    func index(of id: UInt64) -> Int? {
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

    /// Takes `registration` out. It moves to `garbage`, to be released once the center is unlocked.
    mutating func remove(_ registration: Registration, garbage: inout [AnyObject]) {
        guard let index = index(of: registration.id) else { return }
        garbage.append(entries.remove(at: index))
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
    var garbage: [AnyObject] = []

    mutating func takeGarbage() -> [AnyObject] {
        guard !garbage.isEmpty else { return [] }
        let taken = garbage
        garbage = []
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
            registration.objectSerial = serials.serial(registering: object)
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
            named[name]?.remove(registration, garbage: &garbage)
            if let bucket = named[name], bucket.liveCount == 0 {
                for entry in bucket.entries { garbage.append(entry) }
                named[name] = nil
            }
        } else {
            wildcard.remove(registration, garbage: &garbage)
        }
        if let key = registration.observerKey {
            byObserver[key]?[registration.id] = nil
            if byObserver[key]?.isEmpty == true { byObserver[key] = nil }
        }
        liveCount -= 1
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
