import Foundation
import Synchronization

/// The registrations of one name (or of the wildcard name), in registration order.
///
/// Ids only grow and removal keeps order, so a registration is found by binary search. A removed
/// registration leaves the array at once: its block, and everything the block captured, must be
/// released when removal returns, as Foundation does.
struct Bucket {
    var entries: ContiguousArray<Registration> = []
    /// The name observed; nil for the wildcard bucket and for a freed slot.
    var name: Notification.Name?
    /// Set when a post read the entries, so a posting thread may hold a copy of them; cleared by
    /// the removal that sweeps those copies. A removal from a bucket never read sweeps nothing.
    var copied = false

    /// Removes the entry at `index`: most often the newest, which moves no other entry.
    @inline(__always)
    mutating func removeEntry(at index: Int) {
        if index == entries.count - 1 {
            entries.removeLast()
        } else {
            entries.remove(at: index)
        }
    }

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
/// Each observed name owns a slot, a small number that indexes its bucket: registrations and tokens
/// keep the slot (4 bytes) rather than the name (16), and removal reaches the bucket without hashing
/// the name. A bucket that empties keeps its slot, so a name observed and unobserved in turn costs
/// no allocation; empty buckets are let go together once they outnumber the others. A freed slot
/// is reused; a stale token then finds no registration with its id there (ids are never reused),
/// so it removes nothing.
struct RegistrationTable {
    /// The slot that stands for "every name".
    static let wildcardSlot = UInt32.max
    /// Empty buckets kept before they are let go, whatever the number of others.
    static let emptyBucketsKept = 64

    /// The slot of every name with a bucket.
    var slots: [Notification.Name: UInt32] = [:]
    /// Buckets by slot; a freed slot's bucket has no name.
    var buckets: [Bucket] = []
    private var freeSlots: [UInt32] = []
    private var emptyBuckets = 0
    var wildcard = Bucket()
    /// The slot `claimSlot(for:)` returned last: a name registered again finds it without hashing.
    private var lastClaimedSlot = RegistrationTable.wildcardSlot
    /// Target and owner registrations by the observer's identity; entries are confirmed by a weak
    /// load before use, since identities of dead observers are reused.
    var byObserver: [ObjectIdentifier: [UInt64: Registration]] = [:]
    var liveCount = 0
    /// The registrations that filter on an instance (the ones whose filter can die), in
    /// registration order; nil where one ended.
    private var instanceFiltered: ContiguousArray<Registration?> = []
    /// The id of each entry of `instanceFiltered`, kept for ended ones: ids grow, so the array is
    /// sorted and a removal finds its entry by binary search.
    private var instanceFilteredIDs: ContiguousArray<UInt64> = []
    private var instanceFilteredHoles = 0
    /// Where the next look at the instance filters goes on from (``forEachFiltered(limit:_:)``).
    var filterLookCursor = 0
    var lastID: UInt64 = 0
    var serials = ObjectSerials()
    /// Each (name, callsite) pair's live count after its latest changes.
    var sites = SiteCountLog()
    /// Whether `sites` is kept; only the benchmark that measures what it costs turns it off.
    var keepsHistory = true
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

    /// The slot of `name` (the wildcard slot for nil), giving the name a slot and an empty bucket
    /// if it has none.
    mutating func claimSlot(for name: Notification.Name?) -> UInt32 {
        guard let name else { return Self.wildcardSlot }
        // A freed slot's bucket has no name, and a reused one has its new name: both miss here.
        if Int(lastClaimedSlot) < buckets.count, buckets[Int(lastClaimedSlot)].name == name { return lastClaimedSlot }
        if let slot = slots[name] {
            lastClaimedSlot = slot
            return slot
        }
        let slot: UInt32
        if let free = freeSlots.popLast() {
            slot = free
            buckets[Int(slot)] = Bucket(name: name)
        } else {
            slot = UInt32(buckets.count)
            buckets.append(Bucket(name: name))
        }
        slots[name] = slot
        emptyBuckets += 1
        lastClaimedSlot = slot
        return slot
    }

    /// The slot of `name` if it has a bucket now; the wildcard slot for nil.
    func existingSlot(of name: Notification.Name?) -> UInt32? {
        guard let name else { return Self.wildcardSlot }
        return slots[name]
    }

    /// The name a slot stands for; nil for the wildcard slot.
    func name(ofSlot slot: UInt32) -> Notification.Name? {
        slot == Self.wildcardSlot || Int(slot) >= buckets.count ? nil : buckets[Int(slot)].name
    }

    /// Adds `registration` to the bucket of `slot`, from `claimSlot(for:)`.
    mutating func insert(_ registration: Registration, slot: UInt32) {
        if let observer = registration.observer {
            registration.observerSerial = serials.serial(registering: observer)
        }
        // Most registrations filter on no instance: skip the weak load.
        if registration.objectKey > Registration.valueKey {
            instanceFiltered.append(registration)
            instanceFilteredIDs.append(registration.id)
            if let object = registration.object {
                registration.objectSerial = UInt32(truncatingIfNeeded: serials.serial(registering: object))
            }
        }
        if slot == Self.wildcardSlot {
            wildcard.entries.append(registration)
        } else {
            if buckets[Int(slot)].entries.isEmpty { emptyBuckets -= 1 }
            buckets[Int(slot)].entries.append(registration)
        }
        if let key = registration.observerKey {
            byObserver[key, default: [:]][registration.id] = registration
        }
        liveCount += 1
        noteSiteChange(of: registration, by: 1, at: registration.registeredAt)
    }

    /// Records the change in the site count log (the always-on history), unless history is off.
    @inline(__always)
    private mutating func noteSiteChange(of registration: Registration, by delta: Int, at timestamp: UInt64) {
        guard keepsHistory else { return }
        let key = SiteCountLog.key(
            nameKey: UInt(registration.slot), file: registration.file, line: UInt(registration.line))
        if sites.noteLast(key, delta: delta, at: timestamp) { return }
        sites.note(
            key, name: name(ofSlot: registration.slot)?.rawValue, file: registration.file,
            line: UInt(registration.line), delta: delta, at: timestamp)
    }

    /// Where a registration sits: its slot and index in that slot's bucket.
    private typealias Place = (slot: UInt32, index: Int)

    /// Finds the registration with this id in this slot.
    private func place(of id: UInt64, slot: UInt32) -> Place? {
        if slot == Self.wildcardSlot {
            return wildcard.index(of: id).map { (slot, $0) }
        }
        guard Int(slot) < buckets.count, let index = buckets[Int(slot)].index(of: id) else { return nil }
        return (slot, index)
    }

    private func registration(at place: Place) -> Registration {
        place.slot == Self.wildcardSlot ? wildcard.entries[place.index] : buckets[Int(place.slot)].entries[place.index]
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

    /// Ends the registration with this id in this slot; nil when there is none.
    mutating func remove(id: UInt64, slot: UInt32) -> Registration? {
        guard let place = place(of: id, slot: slot) else { return nil }
        let registration = registration(at: place)
        return end(registration, at: place) ? registration : nil
    }

    /// Ends `registration`; returns false when it had already ended.
    mutating func remove(_ registration: Registration) -> Bool {
        guard let place = place(of: registration.id, slot: registration.slot) else { return false }
        return end(registration, at: place)
    }

    /// Takes the registration at `place` out of its bucket; the registration stays alive in
    /// `garbage` until the center is unlocked.
    private mutating func end(_ registration: Registration, at place: Place) -> Bool {
        guard registration.isActive.exchange(false, ordering: .acquiringAndReleasing) else { return false }
        garbage.append(registration)
        if place.slot == Self.wildcardSlot {
            if wildcard.copied { garbage.sweepsPostCopies = true }
            wildcard.copied = false
            wildcard.removeEntry(at: place.index)
        } else {
            if buckets[Int(place.slot)].copied {
                garbage.sweepsPostCopies = true
                buckets[Int(place.slot)].copied = false
            }
            buckets[Int(place.slot)].removeEntry(at: place.index)
            if buckets[Int(place.slot)].entries.isEmpty {
                emptyBuckets += 1
                if emptyBuckets > Self.emptyBucketsKept && emptyBuckets > slots.count / 2 {
                    freeEmptyBuckets()
                }
            }
        }
        forget(registration)
        return true
    }

    /// Frees the slots of every empty bucket, so names nobody observes stop costing memory.
    private mutating func freeEmptyBuckets() {
        for slot in buckets.indices where buckets[slot].entries.isEmpty {
            guard let name = buckets[slot].name else { continue }
            slots[name] = nil
            sites.forget(nameKey: UInt(slot))
            // Keeps no array capacity: the slot may stay free for a long time.
            buckets[slot] = Bucket()
            freeSlots.append(UInt32(slot))
        }
        emptyBuckets = 0
    }

    private mutating func forget(_ registration: Registration) {
        liveCount -= 1
        if registration.objectKey > Registration.valueKey { forgetInstanceFilter(of: registration.id) }
        if keepsHistory { noteSiteChange(of: registration, by: -1, at: ThreadContext.stamp()) }
        if let key = registration.observerKey {
            byObserver[key]?[registration.id] = nil
            if byObserver[key]?.isEmpty == true { byObserver[key] = nil }
        }
    }

    private mutating func forgetInstanceFilter(of id: UInt64) {
        var low = 0
        var high = instanceFilteredIDs.count
        while low < high {
            let mid = (low + high) / 2
            if instanceFilteredIDs[mid] < id { low = mid + 1 } else { high = mid }
        }
        guard low < instanceFilteredIDs.count, instanceFilteredIDs[low] == id, instanceFiltered[low] != nil else {
            return
        }
        instanceFiltered[low] = nil
        instanceFilteredHoles += 1
        // Amortized O(1) per removal, like the arrays' own growth.
        if instanceFilteredHoles > 64, instanceFilteredHoles * 2 > instanceFiltered.count { compactInstanceFilters() }
    }

    private mutating func compactInstanceFilters() {
        var kept = 0
        var cursor = 0
        for index in instanceFiltered.indices {
            if index == filterLookCursor { cursor = kept }
            guard let registration = instanceFiltered[index] else { continue }
            instanceFiltered[kept] = registration
            instanceFilteredIDs[kept] = instanceFilteredIDs[index]
            kept += 1
        }
        filterLookCursor = filterLookCursor >= instanceFiltered.count ? kept : cursor
        instanceFiltered.removeLast(instanceFiltered.count - kept)
        instanceFilteredIDs.removeLast(instanceFilteredIDs.count - kept)
        instanceFilteredHoles = 0
    }

    /// Calls `body` on the next live registrations filtering on an instance, in registration order,
    /// from ``filterLookCursor`` on, at most `limit` entries; moves the cursor past them. Returns
    /// true when it reached the end, and then puts the cursor back at the start.
    mutating func forEachFiltered(limit: Int, _ body: (Registration) -> Void) -> Bool {
        let end = min(instanceFiltered.count, filterLookCursor + limit)
        for index in filterLookCursor..<max(filterLookCursor, end) {
            if let registration = instanceFiltered[index] { body(registration) }
        }
        guard end < instanceFiltered.count else {
            filterLookCursor = 0
            return true
        }
        filterLookCursor = end
        return false
    }

    /// The registrations filtering on an instance, ended ones included until they are compacted away.
    var instanceFilteredEntries: Int { instanceFiltered.count }

    /// Every live registration in registration order, with the name it observes.
    var all: [(registration: Registration, name: Notification.Name?)] {
        var result = wildcard.entries.map { (registration: $0, name: Notification.Name?.none) }
        for bucket in buckets where !bucket.entries.isEmpty {
            result.append(contentsOf: bucket.entries.map { (registration: $0, name: bucket.name) })
        }
        return result.sorted { $0.registration.id < $1.registration.id }
    }
}

/// Objects to release once the center is unlocked: one inline (a removal usually ends one
/// registration, and this keeps it free of allocation), the rest in an array.
struct Garbage {
    private var first: AnyObject?
    private var rest: [AnyObject] = []
    /// Whether posting threads' copies may hold some of it, so they must be swept before it goes.
    var sweepsPostCopies = false

    var isEmpty: Bool { first == nil }

    mutating func append(_ object: AnyObject) {
        if first == nil {
            first = object
        } else {
            rest.append(object)
        }
    }
}
