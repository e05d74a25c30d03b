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

    struct Pair {
        var name: String?
        var callsite: NotifyCallsite
        var live = 0
        /// A ring of the latest changes; `total` changes ever.
        var times: [UInt64] = []
        var lives: [Int] = []
        var total = 0

        init(name: String?, callsite: NotifyCallsite) {
            self.name = name
            self.callsite = callsite
            times.reserveCapacity(SiteCountLog.changesKept)
            lives.reserveCapacity(SiteCountLog.changesKept)
        }

        mutating func change(by delta: Int, at timestamp: UInt64) {
            live += delta
            if times.count < SiteCountLog.changesKept {
                times.append(timestamp)
                lives.append(live)
            } else {
                times[total % SiteCountLog.changesKept] = timestamp
                lives[total % SiteCountLog.changesKept] = live
            }
            total += 1
        }

        /// Oldest first.
        var changes: [(timestamp: UInt64, live: Int)] {
            let start = times.count < SiteCountLog.changesKept ? 0 : total % SiteCountLog.changesKept
            return (0..<times.count).map { offset in
                let index = (start + offset) % times.count
                return (times[index], lives[index])
            }
        }
    }

    private var pairs: [Key: Pair] = [:]
    /// Pairs with no live registration: only while some exist does a full log look for one to replace.
    private var idle = 0
    /// The pair changed last: a site that adds and removes in turn is found without hashing. Valid
    /// until a pair is added or removed.
    private var lastKey: Key?
    private var lastIndex: Dictionary<Key, Pair>.Index?

    /// Records that a registration of `name` (identified by `nameKey`) made at `file`:`line` was
    /// added (`delta` 1) or ended (-1) at `timestamp`. `name` is read only for a new pair.
    mutating func note(
        nameKey: UInt, name: () -> String?, file: StaticString, line: UInt, delta: Int, at timestamp: UInt64
    ) {
        let address = file.hasPointerRepresentation ? UInt(bitPattern: file.utf8Start) : UInt(file.unicodeScalar.value)
        let key = Key(name: nameKey, file: address, line: line)
        let index: Dictionary<Key, Pair>.Index?
        if let lastIndex, lastKey == key {
            index = lastIndex
        } else {
            index = pairs.index(forKey: key)
            lastKey = key
            lastIndex = index
        }
        if let index {
            let wasLive = pairs.values[index].live > 0
            pairs.values[index].change(by: delta, at: timestamp)
            let isLive = pairs.values[index].live > 0
            if wasLive != isLive { idle += isLive ? -1 : 1 }
            return
        }
        // An end whose start was not kept (the log was full) says nothing true about the count.
        guard delta > 0 else { return }
        if pairs.count >= Self.maximumPairs {
            guard idle > 0, let replaced = pairs.first(where: { $0.value.live <= 0 })?.key else { return }
            pairs[replaced] = nil
            idle -= 1
        }
        var pair = Pair(name: name(), callsite: NotifyCallsite(file: file, line: line))
        pair.change(by: delta, at: timestamp)
        pairs[key] = pair
        lastKey = key
        lastIndex = pairs.index(forKey: key)
    }

    /// Forgets the pairs of a name key whose slot now stands for another name.
    mutating func forget(nameKey: UInt) {
        pairs = pairs.filter { $0.key.name != nameKey }
        idle = pairs.values.count { $0.live <= 0 }
        lastKey = nil
        lastIndex = nil
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
