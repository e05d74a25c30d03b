public import NotifyWire

/// One handler run in a cascade or a "posted by" chain.
public struct CascadeDelivery: Sendable, Hashable {
    /// The deliver line's sequence number.
    public let seq: UInt64
    /// The post delivered.
    public let postID: UInt64
    /// The registration whose handler ran.
    public let registration: UInt64
    /// The name it observes (`*` for every name, `?` when the model no longer tracks it).
    public let registrationName: String
    /// Where it registered; nil when the model no longer tracks it.
    public let site: CallsiteInfo?
    /// The thread the handler ran on.
    public let thread: UInt64
    /// Its name, with its id.
    public let threadName: String
    /// The thread that posted.
    public let postingThread: UInt64
    /// Where the handler ran: inline, a queue, a thread, the main thread, a task.
    public let target: TraceTargetKind
    /// When the handler started.
    public let start: UInt64
    /// How long it ran.
    public let duration: UInt64
    /// Queue or mailbox wait between the hand-off and the start; 0 inline.
    public let wait: UInt64

    /// Whether the handler ran on another thread than the post's.
    public var hopped: Bool { thread != postingThread }
}

/// A post, every kept delivery of it, and the posts each delivery's handler made, recursively.
public struct CascadeNode: Sendable, Hashable {
    /// The post.
    public let post: PostInfo
    /// Its deliveries, oldest first, each with the posts its handler made.
    public let deliveries: [CascadeBranch]
    /// Posts made with this post as their parent whose delivery the trace does not identify
    /// (its deliver line not yet written, pushed out or lost); ``notes`` says which.
    public let unplaced: [CascadeNode]
    /// What the trace could not say about this post's deliveries and nested posts.
    public let notes: [String]
}

/// One delivery in a cascade, with the posts its handler made.
public struct CascadeBranch: Sendable, Hashable {
    /// The delivery.
    public let delivery: CascadeDelivery
    /// Posts made inside this handler run, oldest first.
    public let nested: [CascadeNode]
}

/// The answer to "what did this post set off?": the post, its deliveries and nested posts.
public struct Cascade: Sendable, Hashable {
    /// The post asked about.
    public let root: CascadeNode
    /// Posts in the tree.
    public let posts: Int
    /// Deliveries in the tree.
    public let deliveries: Int
    /// Whether the tree stopped at its node limit.
    public let truncated: Bool
    /// Whole-answer notes: events lost in gaps, the node limit.
    public let notes: [String]
}

/// The answer to "who posted this?": from a delivery (or a post) up through the handler runs
/// that posted each post, to a post made outside any handler.
public struct PostedByChain: Sendable, Hashable {
    /// One step up.
    public enum Step: Sendable, Hashable {
        /// A handler run: the post below it was made inside it.
        case delivery(CascadeDelivery)
        /// A post: the delivery below it is one of its deliveries.
        case post(PostInfo)
    }

    /// From what was asked about up to the highest post the trace still holds.
    public let steps: [Step]
    /// Whether the chain reached a post made outside any handler (depth 1, no parent).
    public let reachedRoot: Bool
    /// Why the chain stops where it does, when it does not reach a root post.
    public let notes: [String]
}
