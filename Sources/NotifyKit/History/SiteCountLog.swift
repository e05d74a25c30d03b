/// For each (name, callsite) pair, the number of live registrations after each of its latest
/// changes, with the time: what lets a viewer attached late judge growth from true times.
///
/// Kept where registrations are added and removed (under the center's lock), never on the post
/// path. Bounded: beyond ``maximumPairs`` a new pair replaces one with no live registration, or
/// is not kept.
struct SiteCountLog {
    static let changesKept = 16
    static let maximumPairs = 1024

    /// A pair, hashed without reading the name's or the file's characters: the name by its table
    /// slot (or message type), the file by its address.
    struct Key: Hashable {
        let name: UInt
        let file: UInt
        let line: UInt
    }

    /// One pair's count and its latest changes. A class, so a change writes the pair where it
    /// lies: no copy of it in or out of the dictionary, no uniqueness check of its storage.
    final class Pair {
        let name: String?
        let callsite: ProbeEvent.Callsite
        @exclusivity(unchecked) private(set) var live = 0
        /// A ring of the latest changes, kept inline; `total` changes ever.
        @exclusivity(unchecked) private var times = InlineArray<16, UInt64>(repeating: 0)
        @exclusivity(unchecked) private var lives = InlineArray<16, Int>(repeating: 0)
        @exclusivity(unchecked) private var total = 0

        init(name: String?, callsite: ProbeEvent.Callsite) {
            self.name = name
            self.callsite = callsite
        }

        @inline(__always)
        func change(by delta: Int, at timestamp: UInt64) {
            live &+= delta
            let slot = total & (SiteCountLog.changesKept - 1)
            times[slot] = timestamp
            lives[slot] = live
            total &+= 1
        }

        /// Oldest first.
        var changes: [(timestamp: UInt64, live: Int)] {
            let kept = min(total, SiteCountLog.changesKept)
            let start = total - kept
            return (start..<total).map { change in
                let slot = change & (SiteCountLog.changesKept - 1)
                return (times[slot], lives[slot])
            }
        }
    }

    private var pairs: [Key: Pair] = [:]
    /// Pairs with no live registration: only while some exist does a full log look for one to replace.
    private var idle = 0
    /// The pair changed last: a site that adds and removes in turn is found without hashing.
    private var lastKey: Key?
    private var lastPair: Pair?
    /// A key found absent, still absent: `pairs` has not taken it since. A site that adds and
    /// removes in turn while the log is full of live pairs is then passed over without hashing.
    private var lastMissKey: Key?

    /// The key of a registration of the name `nameKey` stands for, made at `file`:`line`.
    @inline(__always)
    static func key(nameKey: UInt, file: StaticString, line: UInt) -> Key {
        let address = file.hasPointerRepresentation ? UInt(bitPattern: file.utf8Start) : UInt(file.unicodeScalar.value)
        return Key(name: nameKey, file: address, line: line)
    }

    /// Records that a registration of the pair `key` was added (`delta` 1) or ended (-1) at
    /// `timestamp`, when the pair is the one changed last; false otherwise, and nothing is recorded
    /// (call ``note(_:name:file:line:delta:at:)``).
    @inline(__always)
    mutating func noteLast(_ key: Key, delta: Int, at timestamp: UInt64) -> Bool {
        guard let lastPair, lastKey == key else { return false }
        change(lastPair, by: delta, at: timestamp)
        return true
    }

    /// Records that a registration of `name` (the pair `key`) made at `file`:`line` was added
    /// (`delta` 1) or ended (-1) at `timestamp`, once ``noteLast(_:delta:at:)`` returned false.
    mutating func note(
        _ key: Key, name: String?, file: StaticString, line: UInt, delta: Int, at timestamp: UInt64
    ) {
        noteElsewhere(key, name: name, file: file, line: line, delta: delta, at: timestamp)
    }

    @inline(__always)
    private mutating func change(_ pair: Pair, by delta: Int, at timestamp: UInt64) {
        let wasLive = pair.live > 0
        pair.change(by: delta, at: timestamp)
        let isLive = pair.live > 0
        if wasLive != isLive { idle += isLive ? -1 : 1 }
    }

    private mutating func noteElsewhere(
        _ key: Key, name: String?, file: StaticString, line: UInt, delta: Int, at timestamp: UInt64
    ) {
        // Absent still: an end is not kept, nor is a start while no pair is idle to be replaced.
        if key == lastMissKey, delta < 0 || idle == 0 { return }
        if let pair = pairs[key] {
            lastKey = key
            lastPair = pair
            change(pair, by: delta, at: timestamp)
            return
        }
        // An end whose start was not kept (the log was full) says nothing true about the count.
        guard delta > 0 else {
            lastMissKey = key
            return
        }
        if pairs.count >= Self.maximumPairs {
            guard idle > 0, let replaced = pairs.first(where: { $0.value.live <= 0 })?.key else {
                lastMissKey = key
                return
            }
            pairs[replaced] = nil
            idle -= 1
        }
        let pair = Pair(name: name, callsite: ProbeEvent.Callsite(file: file, line: line))
        pair.change(by: delta, at: timestamp)
        pairs[key] = pair
        if lastMissKey == key { lastMissKey = nil }
        lastKey = key
        lastPair = pair
    }

    /// Forgets the pairs of a name key whose slot now stands for another name.
    mutating func forget(nameKey: UInt) {
        pairs = pairs.filter { $0.key.name != nameKey }
        idle = pairs.values.count { $0.live <= 0 }
        lastKey = nil
        lastPair = nil
        lastMissKey = nil
    }

    /// The pairs with a live registration, in callsite order.
    var live: [NotifyHistory.SiteCount] {
        pairs.values.filter { $0.live > 0 }
            .map { NotifyHistory.SiteCount(name: $0.name, callsite: $0.callsite, changes: $0.changes) }
            .sorted {
                ($0.callsite.file, $0.callsite.line, $0.name ?? "") < (
                    $1.callsite.file, $1.callsite.line, $1.name ?? ""
                )
            }
    }
}
