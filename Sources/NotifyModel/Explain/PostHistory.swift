import NotifyWire

/// The model's one record of posts: every post with its deliveries and enqueues (links), the
/// posts its handlers made, the previous post of its name, and what the rules need of it, folded
/// with every event. Explanations, cascades, finding effects and the rules R7 and R8 all read it.
///
/// Bounded: the last ``capacity`` posts and the last ``capacity`` links, all names together
/// (``InspectorConfiguration/explainLinkCapacity`` rounded up to a power of two; 65,536 by
/// default: 152 bytes a post, 80 a link and 32 of lookup a post, about 17 MB when full). Entries
/// refer to each other by absolute ordinal (how many were appended before), so a reference to one
/// pushed out of its ring is recognised as gone, never mistaken for the entry that took its place.
/// A post is found by id through ``PostLookup``, which drops an entry when the ring does.
///
/// A name posted rarely loses its posts once ``capacity`` newer ones have passed; its name row
/// keeps a ``NewestPost`` summary (time, id, site, observers matched) outside the ring, so an
/// explanation still says when it was last posted and that the post is older than the history.
///
/// - Complexity: O(1) per post, delivery and enqueue; no allocation once the rings are full.
struct PostHistory: Sendable {
    /// Posts and links kept, each: a power of two.
    private(set) var capacity: Int
    /// `capacity - 1`: an ordinal's index in its ring.
    private var mask: Int

    /// One post.
    struct Post: Sendable {
        var seq: UInt64 = 0
        var postID: UInt64 = 0
        var time: UInt64 = 0
        var thread: UInt64 = 0
        var callsite: UInt64 = 0
        var parentPostID: UInt64 = 0
        var name = ""
        var object: UInt64?
        /// The center posted to (0 in a stream of one center); in the padding after `object`.
        var center: UInt32 = 0
        /// Ordinal of this post's newest link (-1: none).
        var newestLink = -1
        /// Ordinal of the newest post made with this post as its parent (-1: none).
        var newestChild = -1
        /// Ordinal of the parent's previous child (-1: none).
        var previousSibling = -1
        /// Ordinal of the previous post of the same name (-1: none).
        var previousOfName = -1
        /// Handler time the poster waited for (posting and operation-queue targets; R7).
        var blocking: UInt64 = 0
        /// Links folded for this post (deliveries and enqueues), kept or not.
        var linkCount: Int32 = 0
        /// Deliveries folded for this post, kept or not.
        var deliveryCount: Int32 = 0
        /// Posts folded with this post as their parent, kept or not.
        var childCount: Int32 = 0
        var matchedCount: Int32 = 0
        /// The name's slot in the model's name table when posted.
        var nameSlot: Int32 = 0
        /// Coalesces of this name a queue reported since the name's previous post (before 1.5).
        var coalescedCount: Int32 = 0
        var depthCount: Int16 = 0
        /// Worst single-handler R7 grade in this post (-1: none).
        var worstHandler: Int8 = -1
        /// R7 post-total grade already reported for this post (-1: none).
        var reportedTotal: Int8 = -1
        var threadIsMain = false
        var isMessage = false

        var links: Int { Int(linkCount) }
        var deliveries: Int { Int(deliveryCount) }
        var children: Int { Int(childCount) }
        var matched: Int { Int(matchedCount) }
        var depth: Int { Int(depthCount) }
        var coalesced: Int { Int(coalescedCount) }
    }

    /// A delivery or an enqueue of one post to one registration.
    struct Link: Sendable {
        enum Kind: UInt8, Sendable { case delivered, enqueued, enqueuedDroppingOldest }
        var seq: UInt64 = 0
        var postID: UInt64 = 0
        var registration: UInt64 = 0
        var thread: UInt64 = 0
        var postingThread: UInt64 = 0
        /// When the handler started (a delivery); the enqueue's time (an enqueue).
        var start: UInt64 = 0
        /// When the handler ended (a delivery); the enqueue's time (an enqueue).
        var end: UInt64 = 0
        var wait: UInt64 = 0
        /// Ordinal of the same post's previous link (-1: none).
        var previous = -1
        var kind = Kind.delivered
        var target = TraceTargetKind.posting
    }

    /// What a name row keeps of its newest post, in the ring or not.
    struct NewestPost: Sendable, Hashable {
        /// Its ordinal in the history (-1: the name was never posted).
        var ordinal = -1
        var seq: UInt64 = 0
        var postID: UInt64 = 0
        var time: UInt64 = 0
        var callsite: UInt64 = 0
        var matched = 0
    }

    private(set) var posts: [Post] = []
    private(set) var postsAppended = 0
    private(set) var links: [Link] = []
    private(set) var linksAppended = 0
    /// Kept posts' ordinals by id.
    private var lookup = PostLookup()

    init(capacity: Int) {
        self.capacity = Self.roundedUp(capacity)
        mask = self.capacity - 1
    }

    private static func roundedUp(_ capacity: Int) -> Int {
        var size = 1
        while size < capacity { size <<= 1 }
        return size
    }

    /// Keeps up to `capacity` posts and links (rounded up to a power of two) from now on when that
    /// is more and neither ring went round yet (an index is then its entry's ordinal, whatever the
    /// capacity); rings gone round keep their own.
    mutating func widen(to capacity: Int) {
        let size = Self.roundedUp(capacity)
        guard size > self.capacity, posts.count == postsAppended, links.count == linksAppended else { return }
        self.capacity = size
        mask = size - 1
        guard !posts.isEmpty else { return }
        lookup = PostLookup(capacity: 2 * size)
        for ordinal in posts.indices { lookup.insert(posts[ordinal].postID, ordinal: ordinal) }
    }

    // MARK: Folding

    /// Appends `post`; returns its ordinal.
    mutating func posted(
        _ post: TracePost, nameSlot: Int, center: UInt32, previousOfName: Int, threadIsMain: Bool, coalesced: Int
    ) -> Int {
        let ordinal = postsAppended
        var record = Post(
            seq: post.seq, postID: post.postID, time: post.timestamp, thread: post.thread, callsite: post.callsite,
            parentPostID: post.parentPostID, name: post.name, object: post.object, center: center,
            previousOfName: previousOfName, matchedCount: Int32(clamping: post.matched),
            nameSlot: Int32(truncatingIfNeeded: nameSlot), coalescedCount: Int32(clamping: coalesced),
            depthCount: Int16(clamping: post.depth),
            threadIsMain: threadIsMain, isMessage: post.message != nil)
        if post.parentPostID != 0 {
            if let parent = postOrdinal(post.parentPostID) {
                let index = parent & mask
                record.previousSibling = posts[index].newestChild
                posts[index].newestChild = ordinal
                posts[index].childCount &+= 1
            } else {
                record.previousSibling = waitingChild(of: post.parentPostID, ordinal: ordinal)
            }
        }
        // Nested posts and links whose line came before this post's (threads' records are merged
        // per drain, so a later thread's line can overtake an earlier one).
        if !waiting.isEmpty, let early = waiting.removeValue(forKey: post.postID) {
            record.newestChild = early.newestChild
            record.childCount = early.children
            record.newestLink = early.newestLink
            record.linkCount = early.links
            record.deliveryCount = early.deliveries
        }
        if posts.count < capacity {
            // One allocation for the ring (its pages are touched only as it fills), never a copy.
            if posts.isEmpty {
                posts.reserveCapacity(capacity)
                lookup = PostLookup(capacity: 2 * capacity)
            }
            posts.append(record)
        } else {
            lookup.remove(posts[ordinal & mask].postID, ordinal: ordinal - capacity)
            posts[ordinal & mask] = record
        }
        postsAppended += 1
        lookup.insert(post.postID, ordinal: ordinal)
        return ordinal
    }

    /// Appends a handler run; returns its post's ordinal while kept.
    mutating func delivered(_ delivery: TraceDelivery) -> Int? {
        append(
            Link(
                seq: delivery.seq, postID: delivery.postID, registration: delivery.registration,
                thread: delivery.thread, postingThread: delivery.postingThread, start: delivery.start,
                end: delivery.timestamp, wait: delivery.wait, kind: .delivered, target: delivery.target))
    }

    /// Appends a message queued for one registration.
    mutating func enqueued(_ enqueue: TraceMessageEnqueue) {
        _ = append(
            Link(
                seq: enqueue.seq, postID: enqueue.postID, registration: enqueue.registration, thread: enqueue.thread,
                postingThread: enqueue.thread, start: enqueue.timestamp, end: enqueue.timestamp,
                kind: enqueue.droppedOldest ? .enqueuedDroppingOldest : .enqueued))
    }

    private mutating func append(_ link: Link) -> Int? {
        let ordinal = linksAppended
        var record = link
        let isDelivery = link.kind == .delivered
        let post = postOrdinal(link.postID)
        if let post {
            let index = post & mask
            record.previous = posts[index].newestLink
            posts[index].newestLink = ordinal
            posts[index].linkCount &+= 1
            if isDelivery { posts[index].deliveryCount &+= 1 }
        } else {
            record.previous = waitingLink(of: link.postID, ordinal: ordinal, isDelivery: isDelivery)
        }
        if links.count < capacity {
            if links.isEmpty { links.reserveCapacity(capacity) }
            links.append(record)
        } else {
            links[ordinal & mask] = record
        }
        linksAppended += 1
        return post
    }

    /// Lines that came before the post they belong to, by that post's id. Bounded: emptied when
    /// full (a post the stream never carries, made before it began, would otherwise hold its
    /// entry forever).
    private var waiting: [UInt64: Waiting] = [:]
    static let maximumWaiting = 256

    private struct Waiting: Sendable {
        var newestChild = -1
        var children: Int32 = 0
        var newestLink = -1
        var links: Int32 = 0
        var deliveries: Int32 = 0
    }

    /// Chains child `ordinal` to those waiting for post `postID`; returns the previous newest.
    private mutating func waitingChild(of postID: UInt64, ordinal: Int) -> Int {
        makeRoom(for: postID)
        var entry = waiting[postID] ?? Waiting()
        let previous = entry.newestChild
        entry.newestChild = ordinal
        entry.children &+= 1
        waiting[postID] = entry
        return previous
    }

    /// Chains link `ordinal` to those waiting for post `postID`; returns the previous newest.
    private mutating func waitingLink(of postID: UInt64, ordinal: Int, isDelivery: Bool) -> Int {
        guard postID != 0 else { return -1 }
        makeRoom(for: postID)
        var entry = waiting[postID] ?? Waiting()
        let previous = entry.newestLink
        entry.newestLink = ordinal
        entry.links &+= 1
        if isDelivery { entry.deliveries &+= 1 }
        waiting[postID] = entry
        return previous
    }

    private mutating func makeRoom(for postID: UInt64) {
        if waiting.count >= Self.maximumWaiting, waiting[postID] == nil { waiting.removeAll(keepingCapacity: true) }
    }

    /// Bytes the history holds, roughly.
    var estimatedBytes: Int {
        posts.count * MemoryLayout<Post>.stride + links.count * MemoryLayout<Link>.stride + lookup.estimatedBytes
            + waiting.count * (MemoryLayout<Waiting>.stride + 8)
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

    /// Whether the post at `ordinal` is still in the ring.
    func keeps(post ordinal: Int) -> Bool {
        ordinal >= 0 && ordinal < postsAppended && ordinal >= postsAppended - posts.count
    }

    /// The post at `ordinal`, while kept.
    func post(at ordinal: Int) -> Post? {
        keeps(post: ordinal) ? posts[ordinal & mask] : nil
    }

    /// The kept post at `ordinal` (from ``postOrdinal(_:)`` or the fold, with no post since).
    subscript(kept ordinal: Int) -> Post {
        get { posts[ordinal & mask] }
        _modify { yield &posts[ordinal & mask] }
    }

    /// The link at `ordinal`, while kept.
    func link(at ordinal: Int) -> Link? {
        guard ordinal >= 0, ordinal < linksAppended, ordinal >= linksAppended - links.count else { return nil }
        return links[ordinal & mask]
    }

    /// Whether posts were pushed out of the ring.
    var forgotPosts: Bool { postsAppended > posts.count }
}
