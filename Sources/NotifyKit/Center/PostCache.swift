import Foundation
import NotifySystem
import Synchronization

/// Per-thread copies of the registration arrays (and the probes attached) that posts read, so that
/// threads posting at once write no memory they share.
///
/// A post through the center's lock writes the lock's cache line and the shared array's reference
/// count; two threads posting one name then spend their time passing those lines between cores.
/// Here each thread reads a stripe of its own (by thread id), whose lock and array copies only it
/// touches. A copy is valid while the table's ``NotifyCenter/tableVersion`` has not moved: every
/// change to the table bumps it, and a removal then sweeps the stripes so that a removed
/// registration's handler is released when removal returns, as Foundation does. Only a removal
/// from a bucket some post read (``Bucket/copied``) sweeps: no stripe holds the others.
final class PostCache: @unchecked Sendable {  // every stripe's fields are guarded by its own lock
    /// A power of two; threads whose ids share the low bits share a stripe (correct, just slower).
    static let stripeCount = 16
    /// Names a stripe keeps before it starts again from empty.
    static let namesPerStripe = 256

    private let stripes: [Stripe]
    /// The same stripes, for the post path: reading them through unmanaged references spares a
    /// retain and release of the stripe on every post (`stripes` keeps them alive).
    private let unretained: UnsafeMutablePointer<Unmanaged<Stripe>>

    init() {
        stripes = (0..<Self.stripeCount).map { _ in Stripe() }
        unretained = .allocate(capacity: Self.stripeCount)
        unretained.initialize(from: stripes.map { Unmanaged.passUnretained($0) }, count: Self.stripeCount)
    }

    deinit {
        unretained.deallocate()
    }

    /// Runs `body` with the calling thread's stripe.
    @inline(__always)
    func withStripe<Result>(forThread id: UInt64, _ body: (Stripe) -> Result) -> Result {
        unretained[Int(truncatingIfNeeded: id) & (Self.stripeCount - 1)]._withUnsafeGuaranteedRef(body)
    }

    /// Takes every copy made before `version`; the caller releases them with no lock held, since
    /// a handler's captures may call back into the center as they go. Copies made from `version`
    /// or a later one (another change may have swept and moved on meanwhile) stay.
    func sweep(before version: UInt64) -> [Stripe.Copies] {
        var stale: [Stripe.Copies] = []
        for index in 0..<Self.stripeCount {
            unretained[index]._withUnsafeGuaranteedRef { stripe in
                guard stripe.occupied.load(ordering: .sequentiallyConsistent) else { return }
                stripe.lock.lock()
                if stripe.version < version, let copies = stripe.takeAll() {
                    stale.append(copies)
                }
                stripe.lock.unlock()
            }
        }
        return stale
    }

    /// One thread's (or a few threads') copies, on its own cache lines.
    final class Stripe: @unchecked Sendable {  // guarded by `lock`, but `occupied`, an atomic
        typealias Copies = (
            named: [Notification.Name: NameCopy],
            wildcard: ContiguousArray<Registration>, probes: ProbeSet?
        )

        let lock = Lock(ownCacheLine: true)
        /// Set before a copy is stored and checked by a sweep after the version moves (both
        /// sequentially consistent), so a sweep never misses a copy made from an older table.
        let occupied = Atomic<Bool>(false)
        /// The table version the copies were made from; `.max` when there are none.
        @exclusivity(unchecked) var version: UInt64 = .max
        @exclusivity(unchecked) var named: [Notification.Name: NameCopy] = [:]
        @exclusivity(unchecked) var wildcard: ContiguousArray<Registration> = []
        /// The probes attached at `version`.
        @exclusivity(unchecked) var probes: ProbeSet?
        /// The last names looked up, keyed by their bits: finds a name's copy without hashing it.
        /// On cache lines of their own, like the rest of the stripe.
        private let recent = UnsafeMutableRawPointer.allocate(
            byteCount: (MemoryLayout<RecentName>.stride * Stripe.recentCount + 127) / 128 * 128, alignment: 128
        ).bindMemory(to: RecentName.self, capacity: Stripe.recentCount)
        // Keeps the next stripe's fields off this one's cache lines: threads with consecutive ids
        // use neighbouring stripes, which are allocated one after another.
        private let padding = InlineArray<16, UInt64>(repeating: 0)

        static let recentCount = 16

        init() {
            recent.initialize(repeating: RecentName(), count: Self.recentCount)
        }

        deinit {
            recent.deinitialize(count: Self.recentCount)
            recent.deallocate()
        }

        /// The copy of `name`'s registrations (and its counter index), if this stripe has one; must
        /// be called with `lock` held.
        ///
        /// A name whose bits were looked up lately is found by comparing two words. Equal bits mean
        /// an equal name: a small string's bits are its bytes, a large one's point at storage kept
        /// alive by the slot. Equal names with different storage fall back to the dictionary.
        @inline(__always)
        func copy(for name: Notification.Name) -> NameCopy? {
            let bits = RecentName.bits(of: name)
            let slot = recent + RecentName.slot(of: bits, in: Self.recentCount)
            if slot.pointee.bits == bits { return slot.pointee.copy }
            guard let copy = named[name] else { return nil }
            slot.pointee = RecentName(name: name, bits: bits, copy: copy)
            return copy
        }

        /// Keeps `entries` as the copy of `name`; must be called with `lock` held. Returns the copies
        /// this one pushes out, for the caller to release with no lock held.
        func store(_ copy: NameCopy, for name: Notification.Name) -> Copies? {
            var stale: Copies?
            if named.count >= PostCache.namesPerStripe {
                stale = (named, [], nil)
                named = [:]
                forgetRecent()
            } else if let displaced = named.removeValue(forKey: name) {
                // Another thread of this stripe stored the name first; its copy may be the last
                // reference to a handler, so it too leaves the lock before it is released.
                forgetRecent()
                stale = ([name: displaced], [], nil)
            }
            named[name] = copy
            return stale
        }

        /// Drops the copies of an older table and starts keeping copies of table `version`; must be
        /// called with `lock` held. Returns the old copies, for the caller to release with no lock held.
        func start(version: UInt64, wildcard: ContiguousArray<Registration>, probes: ProbeSet?) -> Copies {
            forgetRecent()
            let stale = (named, self.wildcard, self.probes)
            named = [:]
            self.wildcard = wildcard
            self.probes = probes
            self.version = version
            return stale
        }

        /// Empties the stripe; must be called with `lock` held.
        func takeAll() -> Copies? {
            occupied.store(false, ordering: .sequentiallyConsistent)
            version = .max
            forgetRecent()
            guard !named.isEmpty || !wildcard.isEmpty || probes != nil else { return nil }
            let copies = (named, wildcard, probes)
            named = [:]
            wildcard = []
            probes = nil
            return copies
        }

        /// Clears the recent slots. Every array in them is also in `named`, so releasing them here
        /// never frees a handler under the lock.
        private func forgetRecent() {
            for index in 0..<Self.recentCount where recent[index].name != nil {
                recent[index] = RecentName()
            }
        }
    }
}

/// A name a stripe looked up lately, with its registrations.
struct RecentName {
    /// The name's two words; (0, 0) in an empty slot, which no string has.
    var bits: RecentName.Bits = .zero
    /// Holds the name's storage, so no other string can arrive with these bits while the slot is used.
    var name: Notification.Name?
    var copy = NameCopy()

    typealias Bits = SIMD2<UInt64>

    init() {}

    init(name: Notification.Name, bits: Bits, copy: NameCopy) {
        self.bits = bits
        self.name = name
        self.copy = copy
    }

    @inline(__always)
    static func bits(of name: Notification.Name) -> Bits {
        unsafeBitCast(name, to: Bits.self)
    }

    /// A multiplicative hash of both words into `count` (a power of two) slots.
    @inline(__always)
    static func slot(of bits: Bits, in count: Int) -> Int {
        let mixed = (bits.x ^ (bits.y &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 58) & (count - 1)
    }
}

/// A stripe's copy of one name's registrations, with the name's counter index in the center's
/// history (see ``CenterHistory``), so an unwatched post counts itself without hashing the name.
struct NameCopy {
    var entries: ContiguousArray<Registration> = []
    var counterIndex: UInt32 = 0
}

extension ContiguousArray {
    /// A copy with its own storage: initialising from another array would share the buffer, and
    /// with it the reference count this cache exists to keep private.
    @inline(__always)
    var privateCopy: ContiguousArray {
        isEmpty ? [] : withUnsafeBufferPointer { ContiguousArray($0) }
    }
}
