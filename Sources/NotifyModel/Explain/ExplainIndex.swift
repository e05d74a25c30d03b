import NotifyWire

/// What explaining a post needs that the tables do not keep: each name's recent posts, and each
/// post's deliveries and enqueues, folded with every event.
///
/// Bounded: the last ``postsPerName`` posts of each name the model tracks (a forgotten name's
/// slot starts a fresh log; ``InspectorConfiguration/explainPostsPerName``), and the last
/// ``linkCapacity`` deliveries and enqueues of all posts together. A post finds its deliveries through a chain of links, newest first; a link older
/// than the ring is gone, and the post says its deliveries may be incomplete. With the default
/// 4,096 names that is at most about 15 MB of posts and 5 MB of links.
///
/// - Complexity: O(1) per post, delivery and enqueue; no allocation once a name's log exists.
struct ExplainIndex: Sendable {
    /// Posts kept per name (``InspectorConfiguration/explainPostsPerName``).
    let postsPerName: Int
    /// Deliveries and enqueues kept, all posts together
    /// (``InspectorConfiguration/explainLinkCapacity``).
    private(set) var linkCapacity: Int
    /// Posts a delivery can find by id (direct-mapped, as ``RecentPosts``).
    static let locationCapacity = 1 << 14

    /// One post as explaining it needs it.
    struct Post: Sendable {
        var seq: UInt64 = 0
        var postID: UInt64 = 0
        var time: UInt64 = 0
        var name = ""
        var thread: UInt64 = 0
        var object: UInt64?
        var callsite: UInt64 = 0
        var matched = 0
        var depth = 0
        var parentPostID: UInt64 = 0
        var isMessage = false
        /// The center posted to (0 in a stream of one center).
        var center: UInt32 = 0
        /// Coalesces of this name a notification queue reported since the name's previous post.
        var coalesced = 0
        /// Index of the newest link of this post in ``links`` (-1: none).
        var newestLink = -1
    }

    /// A delivery or an enqueue of one post to one registration.
    struct Link: Sendable {
        enum Kind: Sendable { case delivered, enqueued, enqueuedDroppingOldest }
        var kind = Kind.delivered
        var seq: UInt64 = 0
        var postID: UInt64 = 0
        var registration: UInt64 = 0
        var thread: UInt64 = 0
        var time: UInt64 = 0
        var wait: UInt64 = 0
        /// Index of this post's previous link (-1: none).
        var previous = -1
        /// Links appended before this one: tells a reused index from the one a chain meant.
        var ordinal = 0
    }

    /// One name's posts, oldest overwritten first once ``ExplainIndex/postsPerName`` are kept.
    struct PostLog: Sendable {
        var posts: [Post] = []
        /// Posts appended since the log was made.
        var appended = 0

        /// The post at `ordinal`, while kept.
        func index(of ordinal: Int) -> Int? {
            guard ordinal < appended, ordinal >= appended - posts.count, !posts.isEmpty else { return nil }
            return ordinal % posts.count
        }

        /// Oldest first.
        var ordered: [Post] {
            guard appended > posts.count, !posts.isEmpty else { return posts }
            let head = appended % posts.count
            return Array(posts[head...] + posts[..<head])
        }
    }

    struct Location: Sendable {
        var postID: UInt64 = 0
        var nameSlot = 0
        var ordinal = 0
    }

    init(linkCapacity: Int, postsPerName: Int = 32) {
        self.linkCapacity = max(1, linkCapacity)
        self.postsPerName = max(1, postsPerName)
    }

    var logs: [PostLog] = []
    var locations: [Location] = []
    var links: [Link] = []
    var linksAppended = 0
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
            guard keys.count == ExplainIndex.keptFacts else {
                keys.append(key)
                return nil
            }
            let old = keys[head]
            keys[head] = key
            head = (head + 1) % ExplainIndex.keptFacts
            return old
        }
    }
    /// Sites kept per post: one per merging call site, so few.
    static let mergeSitesPerPost = 16

    mutating func posted(_ post: TracePost, nameSlot: Int, center: UInt32) {
        if nameSlot >= logs.count {
            logs.append(contentsOf: repeatElement(PostLog(), count: nameSlot + 1 - logs.count))
        }
        // A slot the model reused for another name starts a fresh log.
        if let last = logs[nameSlot].posts.last, last.name != post.name { logs[nameSlot] = PostLog() }
        let coalesced = pendingCoalesced.isEmpty ? 0 : pendingCoalesced.removeValue(forKey: post.name) ?? 0
        let record = Post(
            seq: post.seq, postID: post.postID, time: post.timestamp, name: post.name, thread: post.thread,
            object: post.object, callsite: post.callsite, matched: post.matched, depth: post.depth,
            parentPostID: post.parentPostID, isMessage: post.message != nil, center: center, coalesced: coalesced)
        let ordinal = logs[nameSlot].appended
        if logs[nameSlot].posts.count < postsPerName {
            logs[nameSlot].posts.append(record)
        } else {
            logs[nameSlot].posts[ordinal % postsPerName] = record
        }
        logs[nameSlot].appended += 1
        if locations.isEmpty { locations = Array(repeating: Location(), count: Self.locationCapacity) }
        locations[Self.locationIndex(post.postID)] = Location(postID: post.postID, nameSlot: nameSlot, ordinal: ordinal)
    }

    mutating func delivered(_ delivery: TraceDelivery) {
        link(
            Link(
                kind: .delivered, seq: delivery.seq, postID: delivery.postID, registration: delivery.registration,
                thread: delivery.thread, time: delivery.timestamp, wait: delivery.wait))
    }

    mutating func enqueued(_ enqueue: TraceMessageEnqueue) {
        link(
            Link(
                kind: enqueue.droppedOldest ? .enqueuedDroppingOldest : .enqueued, seq: enqueue.seq,
                postID: enqueue.postID, registration: enqueue.registration, thread: enqueue.thread,
                time: enqueue.timestamp))
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

    private mutating func link(_ link: Link) {
        let location = locations.isEmpty ? Location() : locations[Self.locationIndex(link.postID)]
        guard location.postID == link.postID, link.postID != 0,
            let position = logs[location.nameSlot].index(of: location.ordinal),
            logs[location.nameSlot].posts[position].postID == link.postID
        else { return }
        var link = link
        link.previous = logs[location.nameSlot].posts[position].newestLink
        link.ordinal = linksAppended
        let index = linksAppended % linkCapacity
        if links.count < linkCapacity { links.append(link) } else { links[index] = link }
        linksAppended += 1
        logs[location.nameSlot].posts[position].newestLink = index
    }

    @inline(__always)
    private static func locationIndex(_ postID: UInt64) -> Int {
        Int(truncatingIfNeeded: postID & UInt64(locationCapacity - 1))
    }

    /// Keeps up to `capacity` links from now on when that is more and no link was overwritten yet
    /// (an index is then its link's ordinal, whatever the capacity); a ring gone round keeps its own.
    mutating func widen(to capacity: Int) {
        guard capacity > linkCapacity, linksAppended == links.count else { return }
        linkCapacity = capacity
    }

    /// A post's links, oldest first, and whether older ones were overwritten.
    func links(of post: Post) -> (links: [Link], complete: Bool) {
        var found: [Link] = []
        var index = post.newestLink
        var expectedBelow = Int.max
        while index >= 0, index < links.count {
            let link = links[index]
            // Overwritten, or a reused index that no longer belongs to this chain.
            guard link.postID == post.postID, link.ordinal < expectedBelow,
                link.ordinal >= linksAppended - links.count
            else { return (found.reversed(), false) }
            found.append(link)
            expectedBelow = link.ordinal
            index = link.previous
        }
        return (found.reversed(), true)
    }

    /// Bytes the index holds, roughly.
    var estimatedBytes: Int {
        logs.reduce(0) { $0 + $1.posts.count } * MemoryLayout<Post>.stride + links.count * MemoryLayout<Link>.stride
            + locations.count * MemoryLayout<Location>.stride + pendingCoalesced.count * 64
            + filterDeaths.count * 64 + merges.count * 96
    }

    /// The kept posts of the name in `nameSlot`, oldest first.
    func posts(nameSlot: Int, name: String) -> [Post] {
        guard nameSlot < logs.count else { return [] }
        return logs[nameSlot].ordered.filter { $0.name == name }
    }

    /// Posts of the name in `nameSlot` no longer kept: older than its last ``postsPerName``.
    func postsForgotten(nameSlot: Int, name: String) -> Int {
        guard nameSlot < logs.count, logs[nameSlot].posts.last?.name == name else { return 0 }
        return logs[nameSlot].appended - logs[nameSlot].posts.count
    }
}
