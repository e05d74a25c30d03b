import Synchronization

/// The hot path's way to a name's ``NameMetrics``, without a lock: each thread's stripe of slots
/// holds entries of names it saw lately, found by comparing the name's two words (no hashing, no
/// allocation, no reference count touched). A slot is one atomic word pointing at a
/// ``NameEntry``; entries are immutable and the table keeps every one it made, so a reader may
/// use whatever entry it loads, and two threads storing into one slot at once both stay right.
final class NameMetricsCache: @unchecked Sendable {  // slots are atomics; entries are immutable
    /// A power of two; threads whose ids share the low bits share a stripe (correct, just slower).
    static let stripeCount = 16
    /// Slots per stripe: a power of two, 16 words filling a stripe's 128 bytes.
    static let slotsPerStripe = 16

    private let table: NameMetricsTable
    /// `stripeCount × slotsPerStripe` words, each stripe on 128 bytes of its own: an entry's
    /// address, or 0.
    private let slots: UnsafeMutablePointer<Atomic<UInt>>

    init(table: NameMetricsTable) {
        self.table = table
        let count = Self.stripeCount * Self.slotsPerStripe
        slots = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<UInt>.stride, alignment: 128)
            .bindMemory(to: Atomic<UInt>.self, capacity: count)
        for index in 0..<count { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: Self.stripeCount * Self.slotsPerStripe)
        slots.deallocate()
    }

    /// Runs `body` with `name`'s handles, looked up in the stripe of thread `thread`.
    @inline(__always)
    func withMetrics(for name: String, thread: UInt64, _ body: (NameMetrics) -> Void) {
        let bits = NameEntry.bits(of: name)
        let stripe = Int(truncatingIfNeeded: thread) & (Self.stripeCount - 1)
        let slot = slots + (stripe * Self.slotsPerStripe + Self.index(of: bits))
        let address = slot.pointee.load(ordering: .acquiring)
        if address != 0 {
            let entry = Unmanaged<NameEntry>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
            let found = entry._withUnsafeGuaranteedRef { entry -> Bool in
                guard entry.bits == bits else { return false }
                body(entry.metrics)
                return true
            }
            if found { return }
        }
        guard let entry = table.entry(for: name) else {
            body(table.other)
            return
        }
        slot.pointee.store(UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()), ordering: .releasing)
        body(entry.metrics)
    }

    /// A multiplicative hash of both words into a stripe's slots.
    @inline(__always)
    static func index(of bits: SIMD2<UInt64>) -> Int {
        let mixed = (bits.x ^ (bits.y &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 58) & (slotsPerStripe - 1)
    }
}
