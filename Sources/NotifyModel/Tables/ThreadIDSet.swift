/// A small set of thread ids with a cap: which threads posted or handled a name.
///
/// Why not `Set<UInt64>`: names are touched by a handful of threads, and a linear scan of a few
/// words (newest first) beats hashing on the fold's hot path. Past its capacity, further ones
/// are only counted in ``overflow``, so a name touched by an endless thread pool stays bounded.
package struct ThreadIDSet: Sendable, Hashable {
    /// The ids, in the order first seen.
    package private(set) var ids: [UInt64] = []
    /// Insertions of ids not kept because the set was full; ids past the cap are not remembered,
    /// so one such thread may count more than once.
    package private(set) var overflow: UInt64 = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Whether `id` is in the set.
    package func contains(_ id: UInt64) -> Bool { ids.contains(id) }

    /// The number of ids kept.
    package var count: Int { ids.count }

    @inline(__always)
    mutating func insert(_ id: UInt64) {
        if let last = ids.last, last == id { return }
        var index = ids.count - 1
        while index >= 0 {
            if ids[index] == id { return }
            index -= 1
        }
        if ids.count < capacity {
            ids.append(id)
        } else {
            overflow &+= 1
        }
    }
}
