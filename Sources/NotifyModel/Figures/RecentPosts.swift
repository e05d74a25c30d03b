/// The last few thousand posts, by post id, in a direct-mapped table: what a delivery needs to
/// know about its post (name row, poster callsite and thread, observers reached, time blocked).
///
/// Why direct-mapped: post ids increase, so `id & mask` spreads consecutive posts over distinct
/// slots; a lookup is one index and one compare, no hashing, and memory is fixed. A delivery that
/// arrives after its slot was reused (very late async delivery) simply finds nothing.
struct RecentPosts: Sendable {
    struct Entry: Sendable {
        var postID: UInt64 = 0
        var nameSlot = 0
        var callsite: UInt64 = 0
        var thread: UInt64 = 0
        var threadIsMain = false
        var matched = 0
        /// Handler time the poster waited for (posting and operation-queue targets).
        var blocking: UInt64 = 0
        /// Worst single-handler R7 grade in this post (-1: none).
        var worstHandler: Int8 = -1
        /// R7 post-total grade already reported for this post (-1: none).
        var reportedTotal: Int8 = -1
    }

    private(set) var entries: [Entry]
    private let mask: UInt64

    init(capacity: Int) {
        var size = 1
        while size < max(2, capacity) { size <<= 1 }
        entries = Array(repeating: Entry(), count: size)
        mask = UInt64(size - 1)
    }

    @inline(__always)
    mutating func insert(_ entry: Entry) {
        entries[Int(truncatingIfNeeded: entry.postID & mask)] = entry
    }

    /// The slot holding `postID`, or nil if it was never seen or has been overwritten.
    @inline(__always)
    func index(of postID: UInt64) -> Int? {
        let index = Int(truncatingIfNeeded: postID & mask)
        return entries[index].postID == postID && postID != 0 ? index : nil
    }

    subscript(index: Int) -> Entry {
        get { entries[index] }
        _modify { yield &entries[index] }
    }
}
