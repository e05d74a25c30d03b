import NotifyWire

/// What explaining a post needs besides the post history: queue coalesces not yet given to a
/// post (traces before 1.5), object filter deaths by registration and queue merges by post id.
///
/// Bounded: ``maximumPendingCoalesces`` names and the last ``keptFacts`` deaths and merges.
struct ExplainFacts: Sendable {
    /// Coalesces reported per name since its last post (at most ``maximumPendingCoalesces`` names):
    /// how a trace before 1.5, whose queue lines name no post, attributes them.
    var pendingCoalesced: [String: Int] = [:]
    static let maximumPendingCoalesces = 1_024

    /// An object filter's death as the trace reports it (1.5).
    struct FilterDeath: Sendable, Hashable {
        /// The dead object's id; nil when the producer no longer knew it.
        var object: UInt64?
        /// It was alive then.
        var aliveAt: UInt64
        /// The center found it dead then.
        var foundAt: UInt64
    }

    /// Enqueues of one site a queue merged into a post (1.5).
    struct Merge: Sendable, Hashable {
        var callsite: UInt64
        var count: UInt64
        var enqueuedAt: UInt64
    }

    /// Filter deaths by registration and merges by post id, the last ``keptFacts`` of each kind.
    var filterDeaths: [UInt64: FilterDeath] = [:]
    var merges: [UInt64: [Merge]] = [:]
    private var filterDeathOrder = KeyRing()
    private var mergeOrder = KeyRing()
    static let keptFacts = 4_096

    /// The last ``keptFacts`` keys, oldest overwritten first.
    private struct KeyRing: Sendable {
        var keys: [UInt64] = []
        var head = 0

        /// Adds `key`; returns the key it overwrote once full.
        mutating func push(_ key: UInt64) -> UInt64? {
            guard keys.count == ExplainFacts.keptFacts else {
                keys.append(key)
                return nil
            }
            let old = keys[head]
            keys[head] = key
            head = (head + 1) % ExplainFacts.keptFacts
            return old
        }
    }
    /// Sites kept per post: one per merging call site, so few.
    static let mergeSitesPerPost = 16

    /// The coalesces pending for `name`, now given to its post.
    mutating func takeCoalesced(name: String) -> Int {
        pendingCoalesced.isEmpty ? 0 : pendingCoalesced.removeValue(forKey: name) ?? 0
    }

    /// The center found a registration's object filter dead.
    mutating func objectDied(_ death: TraceObjectDeath) {
        guard filterDeaths[death.registration] == nil else { return }
        Self.remember(death.registration, in: &filterDeathOrder, dropping: &filterDeaths)
        filterDeaths[death.registration] = FilterDeath(
            object: death.object, aliveAt: death.aliveAt, foundAt: death.timestamp)
    }

    /// A queue merged enqueues of one site into a post: the post carries their count and site.
    mutating func merged(_ merge: TraceQueueMerge) {
        if merges[merge.postID] == nil {
            Self.remember(merge.postID, in: &mergeOrder, dropping: &merges)
            merges[merge.postID] = []
        }
        guard merges[merge.postID]!.count < Self.mergeSitesPerPost else { return }
        merges[merge.postID]!.append(Merge(callsite: merge.callsite, count: merge.count, enqueuedAt: merge.enqueuedAt))
    }

    /// Adds `key` to `order`, forgetting the oldest key's value when ``keptFacts`` are kept.
    private static func remember<Value>(_ key: UInt64, in order: inout KeyRing, dropping values: inout [UInt64: Value])
    {
        if let old = order.push(key) { values[old] = nil }
    }

    /// A notification queue merged enqueues of a name: the name's next post carries the count.
    mutating func coalesced(count: Int, name: String) {
        guard pendingCoalesced[name] != nil || pendingCoalesced.count < Self.maximumPendingCoalesces else { return }
        pendingCoalesced[name, default: 0] += max(0, count)
    }

    /// Bytes the facts hold, roughly.
    var estimatedBytes: Int { pendingCoalesced.count * 64 + filterDeaths.count * 64 + merges.count * 96 }
}
