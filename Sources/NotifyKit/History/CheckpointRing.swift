/// The latest explicit checkpoints a center remembers for a viewer attached later, oldest dropped
/// first. Guarded by the center's lock, which `checkpoint(_:)` already holds: remembering one is a
/// store into a slot, with no second lock.
struct CheckpointRing {
    static let capacity = 64

    private var slots: ContiguousArray<NotifyHistory.Checkpoint> = []
    /// Checkpoints ever remembered.
    private var total = 0

    @inline(__always)
    mutating func remember(_ checkpoint: NotifyHistory.Checkpoint) {
        if slots.count < Self.capacity {
            if slots.isEmpty { slots.reserveCapacity(Self.capacity) }
            slots.append(checkpoint)
        } else {
            slots[total % Self.capacity] = checkpoint
        }
        total += 1
    }

    /// Oldest first.
    var remembered: [NotifyHistory.Checkpoint] {
        let start = slots.count < Self.capacity ? 0 : total % Self.capacity
        return (0..<slots.count).map { slots[(start + $0) % slots.count] }
    }
}
