import NotifySystem

/// The hot path's way to a name's ``NameMetrics``: striped by thread, each stripe remembering the
/// names it saw lately by their bits, so a post or delivery finds its handles by comparing two
/// words, with no hashing, no allocation and a lock no other thread normally takes.
final class NameMetricsCache: @unchecked Sendable {  // each stripe's slots are guarded by its lock
    /// A power of two; threads whose ids share the low bits share a stripe (correct, just slower).
    static let stripeCount = 16

    private let table: NameMetricsTable
    private let stripes: [Stripe]
    /// The same stripes, read without retaining them on every event (`stripes` keeps them alive).
    private let unretained: UnsafeMutablePointer<Unmanaged<Stripe>>

    init(table: NameMetricsTable) {
        self.table = table
        stripes = (0..<Self.stripeCount).map { _ in Stripe() }
        unretained = .allocate(capacity: Self.stripeCount)
        unretained.initialize(from: stripes.map { Unmanaged.passUnretained($0) }, count: Self.stripeCount)
    }

    deinit {
        unretained.deallocate()
    }

    /// Runs `body` with `name`'s handles, found on the stripe of thread `thread`. The handles are
    /// not retained, so threads sharing a name do not pass its reference count between them: the
    /// table keeps every handle it ever gave out for as long as this cache lives.
    @inline(__always)
    func withMetrics(for name: String, thread: UInt64, _ body: (NameMetrics) -> Void) {
        let metrics = unretained[Int(truncatingIfNeeded: thread) & (Self.stripeCount - 1)]
            ._withUnsafeGuaranteedRef { stripe in
                stripe.lock.lock()
                defer { stripe.lock.unlock() }
                return stripe.metrics(for: name, table: table)
            }
        metrics._withUnsafeGuaranteedRef(body)
    }

    /// One thread's (or a few threads') recent names, on cache lines of their own.
    final class Stripe: @unchecked Sendable {  // `lock` guards `slots`
        static let slotCount = 16

        let lock = Lock(ownCacheLine: true)
        private let slots = UnsafeMutableRawPointer.allocate(
            byteCount: (MemoryLayout<Slot>.stride * Stripe.slotCount + 127) / 128 * 128, alignment: 128
        ).bindMemory(to: Slot.self, capacity: Stripe.slotCount)

        init() {
            slots.initialize(repeating: Slot(), count: Self.slotCount)
        }

        deinit {
            slots.deinitialize(count: Self.slotCount)
            slots.deallocate()
        }

        /// `name`'s handles; must be called with `lock` held. Equal bits mean an equal name: a small
        /// string's bits are its bytes, a large one's point at storage the slot keeps alive.
        @inline(__always)
        func metrics(for name: String, table: NameMetricsTable) -> Unmanaged<NameMetrics> {
            let bits = unsafeBitCast(name, to: Slot.Bits.self)
            let slot = slots + Slot.index(of: bits, in: Self.slotCount)
            if slot.pointee.bits == bits, let metrics = slot.pointee.metrics { return metrics }
            let metrics = Unmanaged.passUnretained(table.metrics(for: name))
            slot.pointee = Slot(bits: bits, name: name, metrics: metrics)
            return metrics
        }
    }

    struct Slot {
        typealias Bits = SIMD2<UInt64>
        /// (0, 0) in an empty slot, which no string has.
        var bits: Bits = .zero
        /// Holds the name's storage, so no other string arrives with these bits while it is here.
        var name: String?
        /// Kept alive by the table.
        var metrics: Unmanaged<NameMetrics>?

        init() {}

        init(bits: Bits, name: String, metrics: Unmanaged<NameMetrics>) {
            self.bits = bits
            self.name = name
            self.metrics = metrics
        }

        /// A multiplicative hash of both words into `count` (a power of two) slots.
        @inline(__always)
        static func index(of bits: Bits, in count: Int) -> Int {
            let mixed = (bits.x ^ (bits.y &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
            return Int(truncatingIfNeeded: mixed >> 58) & (count - 1)
        }
    }
}
