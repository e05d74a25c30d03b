import Foundation
import Synchronization

/// Per-thread copies of the registration arrays (and the probes attached) that posts read, so that
/// threads posting at once write no memory they share.
///
/// A post through the center's lock writes the lock's cache line and the shared array's reference
/// count; two threads posting one name then spend their time passing those lines between cores.
/// Here each thread reads a stripe of its own (by thread id), whose lock and array copies only it
/// touches. A copy is valid while the table's ``NotifyCenter/tableVersion`` has not moved: every
/// change to the table bumps it, and a removal then sweeps the stripes so that a removed
/// registration's handler is released when removal returns, as Foundation does.
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
        typealias Copies = (named: [Notification.Name: ContiguousArray<Registration>],
                            wildcard: ContiguousArray<Registration>, probes: ProbeSet?)

        let lock = Lock(ownCacheLine: true)
        /// Set before a copy is stored and checked by a sweep after the version moves (both
        /// sequentially consistent), so a sweep never misses a copy made from an older table.
        let occupied = Atomic<Bool>(false)
        /// The table version the copies were made from; `.max` when there are none.
        @exclusivity(unchecked) var version: UInt64 = .max
        @exclusivity(unchecked) var named: [Notification.Name: ContiguousArray<Registration>] = [:]
        @exclusivity(unchecked) var wildcard: ContiguousArray<Registration> = []
        /// The probes attached at `version`.
        @exclusivity(unchecked) var probes: ProbeSet?
        // Keeps the next stripe's fields off this one's cache lines: threads with consecutive ids
        // use neighbouring stripes, which are allocated one after another.
        private let padding = InlineArray<16, UInt64>(repeating: 0)

        /// Empties the stripe; must be called with `lock` held.
        func takeAll() -> Copies? {
            occupied.store(false, ordering: .sequentiallyConsistent)
            version = .max
            guard !named.isEmpty || !wildcard.isEmpty || probes != nil else { return nil }
            let copies = (named, wildcard, probes)
            named = [:]
            wildcard = []
            probes = nil
            return copies
        }
    }
}

extension ContiguousArray {
    /// A copy with its own storage: initialising from another array would share the buffer, and
    /// with it the reference count this cache exists to keep private.
    @inline(__always)
    var privateCopy: ContiguousArray {
        isEmpty ? [] : withUnsafeBufferPointer { ContiguousArray($0) }
    }
}
