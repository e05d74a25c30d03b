/// Kept posts' ring ordinals by post id: open addressing with linear probing over a table at
/// least twice the ring's size, so at most half its slots are taken and a probe is short.
/// Removing an entry shifts the entries after it back (no tombstones), so the table never fills
/// with posts the ring has let go of.
///
/// Ids are sparse (each producer thread takes a block at a time) and the stream may be hostile,
/// so no probe goes further than ``maximumProbe`` slots: an id that finds no free slot within it
/// takes its home slot, and the post there loses its links (reported as no longer kept, never
/// mistaken for another).
struct PostLookup: Sendable {
    private struct Entry: Sendable {
        var postID: UInt64
        /// -1: empty.
        var ordinal: Int
    }

    static let maximumProbe = 32
    private var slots: [Entry] = []
    private var mask = 0

    init() {}

    /// A table of at least `capacity` slots, a power of two.
    init(capacity: Int) {
        var size = 2
        while size < capacity { size <<= 1 }
        slots = Array(repeating: Entry(postID: 0, ordinal: -1), count: size)
        mask = size - 1
    }

    /// The id's low bits: a stream's ids mostly increase, so neighbouring posts take neighbouring
    /// slots (a hash would scatter them over the table and miss the cache on every post).
    @inline(__always)
    func home(_ postID: UInt64) -> Int {
        Int(truncatingIfNeeded: postID) & mask
    }

    /// Records `ordinal` as the newest post with this id.
    mutating func insert(_ postID: UInt64, ordinal: Int) {
        guard !slots.isEmpty else { return }
        let start = home(postID)
        for step in 0..<Self.maximumProbe {
            let index = (start + step) & mask
            if slots[index].ordinal < 0 || slots[index].postID == postID {
                slots[index] = Entry(postID: postID, ordinal: ordinal)
                return
            }
        }
        slots[start] = Entry(postID: postID, ordinal: ordinal)
    }

    /// Forgets the entry for post `postID` at `ordinal`, if it is still the one recorded.
    mutating func remove(_ postID: UInt64, ordinal: Int) {
        guard let found = index(of: postID), slots[found].ordinal == ordinal else { return }
        var hole = found
        var next = found
        while true {
            next = (next + 1) & mask
            // Nothing sits further than the probe limit from its home, so nothing past it can
            // move into the hole (sequential ids make one long run of taken slots).
            guard slots[next].ordinal >= 0, (next - hole) & mask < Self.maximumProbe else { break }
            let wanted = home(slots[next].postID)
            // An entry stays when its home lies cyclically after the hole, up to where it sits.
            let stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
            if stays { continue }
            slots[hole] = slots[next]
            hole = next
        }
        slots[hole] = Entry(postID: 0, ordinal: -1)
    }

    /// The ordinal recorded for `postID`.
    func ordinal(of postID: UInt64) -> Int? {
        index(of: postID).map { slots[$0].ordinal }
    }

    private func index(of postID: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        let start = home(postID)
        for step in 0..<Self.maximumProbe {
            let index = (start + step) & mask
            if slots[index].ordinal < 0 { return nil }
            if slots[index].postID == postID { return index }
        }
        return nil
    }

    var estimatedBytes: Int { slots.count * MemoryLayout<Entry>.stride }
}
