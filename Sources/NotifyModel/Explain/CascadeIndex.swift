import NotifyWire

/// Who posted what: every post with the deliveries it caused and the posts its handlers made,
/// folded with every event, so a post's cascade and a delivery's "posted by" chain are answers of
/// the fold, the same live, recorded and replayed.
///
/// Bounded: the last ``capacity`` posts and the last ``capacity`` deliveries, all names together
/// (``InspectorConfiguration/explainLinkCapacity``; about 16 MB when both are full at the default
/// 65,536). Posts and deliveries refer to each other by absolute ordinal (how many were appended
/// before), so a reference to one pushed out of its ring is recognised as gone, never mistaken
/// for the entry that took its place. A post is found by id through ``PostLookup``, an
/// open-addressed table twice the ring's size that drops a post's entry when the ring does.
///
/// - Complexity: O(1) per post and delivery; no allocation once the rings are full.
struct CascadeIndex: Sendable {
    /// Posts and deliveries kept, each: the configured count rounded up to a power of two.
    private(set) var capacity: Int
    /// `capacity - 1`: an ordinal's index in its ring.
    private var mask: Int

    /// One post as a cascade needs it.
    struct Post: Sendable {
        var seq: UInt64 = 0
        var postID: UInt64 = 0
        var time: UInt64 = 0
        var thread: UInt64 = 0
        var name = ""
        var object: UInt64?
        /// The center posted to (0 in a stream of one center); in the padding after `object`.
        var center: UInt32 = 0
        var callsite: UInt64 = 0
        var parentPostID: UInt64 = 0
        var depth = 0
        var matched = 0
        /// Ordinal of this post's newest delivery (-1: none).
        var newestDelivery = -1
        /// Deliveries folded for this post, kept or not.
        var deliveries = 0
        /// Ordinal of the newest post made with this post as its parent (-1: none).
        var newestChild = -1
        /// Posts folded with this post as their parent, kept or not.
        var children = 0
        /// Ordinal of the parent's previous child (-1: none).
        var previousSibling = -1
    }

    /// One handler run.
    struct Delivery: Sendable {
        var seq: UInt64 = 0
        var postID: UInt64 = 0
        var registration: UInt64 = 0
        var thread: UInt64 = 0
        var postingThread: UInt64 = 0
        var start: UInt64 = 0
        var end: UInt64 = 0
        var wait: UInt64 = 0
        var target = TraceTargetKind.posting
        /// Ordinal of the same post's previous delivery (-1: none).
        var previous = -1
    }

    private(set) var posts: [Post] = []
    private(set) var postsAppended = 0
    private(set) var deliveries: [Delivery] = []
    private(set) var deliveriesAppended = 0
    /// Kept posts' ordinals by id.
    private var lookup = PostLookup()

    init(capacity: Int) {
        var size = 1
        while size < capacity { size <<= 1 }
        self.capacity = size
        mask = size - 1
    }

    /// Keeps up to `capacity` posts and deliveries (rounded up to a power of two) from now on when
    /// that is more and neither ring went round yet (an index is then its entry's ordinal, whatever
    /// the capacity); rings gone round keep their own.
    mutating func widen(to capacity: Int) {
        var size = 1
        while size < capacity { size <<= 1 }
        guard size > self.capacity, posts.count == postsAppended, deliveries.count == deliveriesAppended else { return }
        self.capacity = size
        mask = size - 1
        guard !posts.isEmpty else { return }
        lookup = PostLookup(capacity: 2 * size)
        for ordinal in posts.indices { lookup.insert(posts[ordinal].postID, ordinal: ordinal) }
    }

    mutating func posted(_ post: TracePost, center: UInt32) {
        let ordinal = postsAppended
        var record = Post(
            seq: post.seq, postID: post.postID, time: post.timestamp, thread: post.thread, name: post.name,
            object: post.object, center: center, callsite: post.callsite, parentPostID: post.parentPostID,
            depth: post.depth,
            matched: post.matched)
        if post.parentPostID != 0 {
            if let parent = postOrdinal(post.parentPostID) {
                let index = parent & mask
                record.previousSibling = posts[index].newestChild
                posts[index].newestChild = ordinal
                posts[index].children += 1
            } else {
                record.previousSibling = Self.waiting(&waitingChildren, for: post.parentPostID, ordinal: ordinal)
            }
        }
        // Nested posts and deliveries whose line came before this post's (threads' records are
        // merged per drain, so a later thread's line can overtake an earlier one).
        if !waitingChildren.isEmpty, let early = waitingChildren.removeValue(forKey: post.postID) {
            record.newestChild = early.newest
            record.children = early.count
        }
        if !waitingDeliveries.isEmpty, let early = waitingDeliveries.removeValue(forKey: post.postID) {
            record.newestDelivery = early.newest
            record.deliveries = early.count
        }
        if posts.count < capacity {
            // One allocation for the ring (its pages are touched only as it fills), never a copy.
            if posts.isEmpty {
                posts.reserveCapacity(capacity)
                lookup = PostLookup(capacity: 2 * capacity)
            }
            posts.append(record)
        } else {
            let pushedOut = ordinal - capacity
            lookup.remove(posts[ordinal & mask].postID, ordinal: pushedOut)
            posts[ordinal & mask] = record
        }
        postsAppended += 1
        lookup.insert(post.postID, ordinal: ordinal)
    }

    mutating func delivered(_ delivery: TraceDelivery) {
        let ordinal = deliveriesAppended
        var record = Delivery(
            seq: delivery.seq, postID: delivery.postID, registration: delivery.registration, thread: delivery.thread,
            postingThread: delivery.postingThread, start: delivery.start, end: delivery.timestamp,
            wait: delivery.wait, target: delivery.target)
        if let post = postOrdinal(delivery.postID) {
            let index = post & mask
            record.previous = posts[index].newestDelivery
            posts[index].newestDelivery = ordinal
            posts[index].deliveries += 1
        } else {
            record.previous = Self.waiting(&waitingDeliveries, for: delivery.postID, ordinal: ordinal)
        }
        if deliveries.count < capacity {
            if deliveries.isEmpty { deliveries.reserveCapacity(capacity) }
            deliveries.append(record)
        } else {
            deliveries[ordinal & mask] = record
        }
        deliveriesAppended += 1
    }

    /// Lines that came before the post they belong to, by that post's id: the newest one's
    /// ordinal and how many. Bounded: emptied when full (a post the stream never carries, made
    /// before it began, would otherwise hold its entry forever).
    private var waitingChildren: [UInt64: (newest: Int, count: Int)] = [:]
    private var waitingDeliveries: [UInt64: (newest: Int, count: Int)] = [:]
    static let maximumWaiting = 256

    /// Chains `ordinal` to the lines waiting for post `postID`; returns the previous newest.
    private static func waiting(
        _ table: inout [UInt64: (newest: Int, count: Int)], for postID: UInt64, ordinal: Int
    ) -> Int {
        guard postID != 0 else { return -1 }
        if table.count >= Self.maximumWaiting, table[postID] == nil { table.removeAll(keepingCapacity: true) }
        let previous = table[postID] ?? (newest: -1, count: 0)
        table[postID] = (ordinal, previous.count + 1)
        return previous.newest
    }

    // MARK: Reading

    /// The ordinal of the newest kept post with this id.
    func postOrdinal(_ postID: UInt64) -> Int? {
        guard postID != 0, let ordinal = lookup.ordinal(of: postID) else { return nil }
        // Reads the id in place: copying the post out would retain and release its name.
        guard ordinal < postsAppended, ordinal >= postsAppended - posts.count,
            posts[ordinal & mask].postID == postID
        else { return nil }
        return ordinal
    }

    /// The post at `ordinal`, while kept.
    func post(at ordinal: Int) -> Post? {
        guard ordinal >= 0, ordinal < postsAppended, ordinal >= postsAppended - posts.count else { return nil }
        return posts[ordinal & mask]
    }

    /// The delivery at `ordinal`, while kept.
    func delivery(at ordinal: Int) -> Delivery? {
        guard ordinal >= 0, ordinal < deliveriesAppended, ordinal >= deliveriesAppended - deliveries.count else {
            return nil
        }
        return deliveries[ordinal & mask]
    }

    /// A post's kept deliveries, oldest first, and whether every one folded is among them.
    func deliveries(of post: Post) -> (deliveries: [Delivery], complete: Bool) {
        var found: [Delivery] = []
        var ordinal = post.newestDelivery
        while let delivery = delivery(at: ordinal), delivery.postID == post.postID {
            found.append(delivery)
            ordinal = delivery.previous
        }
        return (found.reversed(), found.count == post.deliveries)
    }

    /// The kept posts made with `post` as their parent, oldest first, with their ordinals, and
    /// whether every one folded is among them.
    func children(of post: Post) -> (children: [(ordinal: Int, post: Post)], complete: Bool) {
        var found: [(ordinal: Int, post: Post)] = []
        var ordinal = post.newestChild
        while let child = self.post(at: ordinal), child.parentPostID == post.postID {
            found.append((ordinal, child))
            ordinal = child.previousSibling
        }
        return (found.reversed(), found.count == post.children)
    }

    /// The newest kept post whose line had sequence number `seq`. O(kept posts).
    func postOrdinal(seq: UInt64) -> Int? {
        var ordinal = postsAppended - 1
        while ordinal >= postsAppended - posts.count, ordinal >= 0 {
            if posts[ordinal & mask].seq == seq { return ordinal }
            ordinal -= 1
        }
        return nil
    }

    /// The newest kept delivery whose line had sequence number `seq`. O(kept deliveries).
    func delivery(seq: UInt64) -> Delivery? {
        var ordinal = deliveriesAppended - 1
        while ordinal >= deliveriesAppended - deliveries.count, ordinal >= 0 {
            if deliveries[ordinal & mask].seq == seq { return deliveries[ordinal & mask] }
            ordinal -= 1
        }
        return nil
    }

    /// Kept deliveries to any of `registrations`, oldest first. O(kept deliveries).
    func deliveries(to registrations: Set<UInt64>) -> [Delivery] {
        guard !registrations.isEmpty else { return [] }
        var found: [Delivery] = []
        var ordinal = max(0, deliveriesAppended - deliveries.count)
        while ordinal < deliveriesAppended {
            let delivery = deliveries[ordinal & mask]
            if registrations.contains(delivery.registration) { found.append(delivery) }
            ordinal += 1
        }
        return found
    }

    /// Whether posts were pushed out of the ring.
    var forgotPosts: Bool { postsAppended > posts.count }
    /// Whether deliveries were pushed out of the ring.
    var forgotDeliveries: Bool { deliveriesAppended > deliveries.count }

    /// Bytes the index holds, roughly.
    var estimatedBytes: Int {
        posts.count * MemoryLayout<Post>.stride + deliveries.count * MemoryLayout<Delivery>.stride
            + lookup.estimatedBytes + (waitingChildren.count + waitingDeliveries.count) * 40
    }
}
