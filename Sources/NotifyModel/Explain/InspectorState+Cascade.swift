import NotifyWire

extension InspectorState {
    /// The most posts one cascade lists; deeper or wider trees say they were cut.
    public static let cascadeNodeLimit = 2_000
    /// The most posts a "posted by" chain climbs.
    public static let postedByLimit = 256

    /// What the kept event with sequence number `seq` is: a post (its id) or a delivery (its
    /// post's id and its registration). Nil when the model keeps no post or delivery line of
    /// that number. O(kept posts + kept deliveries).
    public func cascadeEvent(seq: UInt64) -> (postID: UInt64, registration: UInt64?)? {
        if let ordinal = history.postOrdinal(seq: seq), let post = history.post(at: ordinal) {
            return (post.postID, nil)
        }
        if let delivery = history.delivery(seq: seq) { return (delivery.postID, delivery.registration) }
        return nil
    }

    /// What post `postID` set off: its deliveries, the posts each handler made (a nested post
    /// belongs to the delivery of its parent on its own thread whose run spans its time), and
    /// theirs, recursively, up to `maximumNodes` posts. Nil when the post is no longer kept.
    ///
    /// Pure: reads only what the fold keeps (the last ``InspectorConfiguration/explainLinkCapacity``
    /// posts and deliveries). Never guesses: a nested post whose delivery is not identified is
    /// listed under its post as unplaced, and each node says what was pushed out or lost.
    public func cascade(post postID: UInt64, maximumNodes: Int = cascadeNodeLimit) -> Cascade? {
        guard let ordinal = history.postOrdinal(postID), let post = history.post(at: ordinal) else {
            return nil
        }
        var budget = max(1, maximumNodes)
        var truncated = false
        var counts = (posts: 0, deliveries: 0)
        let root = cascadeNode(post, budget: &budget, truncated: &truncated, counts: &counts)
        var notes: [String] = []
        if post.parentPostID != 0 {
            notes.append("post \(post.postID) was itself made inside a handler of post \(post.parentPostID)")
        }
        if truncated { notes.append("cut at \(max(1, maximumNodes)) posts") }
        if eventsLost > 0 {
            notes.append("\(eventsLost) events were lost in gaps: deliveries or nested posts may be among them")
        }
        return Cascade(
            root: root, posts: counts.posts, deliveries: counts.deliveries, truncated: truncated, notes: notes)
    }

    private func cascadeNode(
        _ post: PostHistory.Post, budget: inout Int, truncated: inout Bool, counts: inout (posts: Int, deliveries: Int)
    ) -> CascadeNode {
        budget -= 1
        counts.posts += 1
        let (deliveries, deliveriesComplete) = history.deliveries(of: post)
        let (children, childrenComplete) = history.children(of: post)
        counts.deliveries += deliveries.count
        var nested = Array(repeating: [CascadeNode](), count: deliveries.count)
        var unplaced: [CascadeNode] = []
        var amongCalls: [String: Int] = [:]
        for child in children {
            guard budget > 0 else {
                truncated = true
                break
            }
            let node = cascadeNode(child.post, budget: &budget, truncated: &truncated, counts: &counts)
            switch Self.placement(of: child.post, parent: post, in: deliveries, complete: deliveriesComplete) {
            case .delivery(let index): nested[index].append(node)
            case .unknown: unplaced.append(node)
            case .amongCalls(let reason):
                unplaced.append(node)
                amongCalls[reason, default: 0] += 1
            }
        }
        let unplacedAmongCalls = amongCalls.values.reduce(0, +)
        var notes: [String] = []
        if !deliveriesComplete {
            notes.append(
                "\(post.deliveries - deliveries.count) of its \(post.deliveries) deliveries were pushed out of the kept history"
            )
        } else if post.deliveries < post.matched {
            notes.append("\(post.matched) registrations matched, \(post.deliveries) ran by the trace's end")
        }
        if !childrenComplete {
            notes.append(
                "\(post.children - children.count) of the \(post.children) posts its handlers made were pushed out of the kept history"
            )
        }
        if unplaced.count > unplacedAmongCalls {
            notes.append(
                "\(unplaced.count - unplacedAmongCalls) nested post(s) have no kept delivery of this post spanning "
                    + "them on their thread: " + missingDeliveryReason(complete: deliveriesComplete))
        }
        for (reason, count) in amongCalls.sorted(by: { $0.key < $1.key }) {
            notes.append("\(count) nested post(s) are not placed: " + reason)
        }
        let branches = deliveries.indices.map {
            CascadeBranch(delivery: cascadeDelivery(deliveries[$0]), nested: nested[$0])
        }
        return CascadeNode(post: cascadePost(post), deliveries: branches, unplaced: unplaced, notes: notes)
    }

    /// Who posted post `postID`: with `registration`, from that registration's newest kept
    /// delivery of it; then the post, the handler run that made it, that run's post, and so on up
    /// to a post made outside any handler. Nil when neither the post nor the delivery is kept.
    public func postedBy(post postID: UInt64, registration: UInt64? = nil) -> PostedByChain? {
        let ordinal = history.postOrdinal(postID)
        guard let registration else {
            guard let ordinal, let post = history.post(at: ordinal) else { return nil }
            return climb(from: [], post: post)
        }
        let delivery: PostHistory.Link?
        if let ordinal, let post = history.post(at: ordinal) {
            delivery = history.deliveries(of: post).deliveries.last { $0.registration == registration }
        } else {
            delivery = history.deliveries(to: [registration]).last { $0.postID == postID }
        }
        guard let delivery else { return nil }
        return postedBy(delivery)
    }

    /// Who posted the post of the delivery whose line had sequence number `seq`; nil when that
    /// delivery is no longer kept.
    public func postedBy(deliverySeq seq: UInt64) -> PostedByChain? {
        history.delivery(seq: seq).map { postedBy($0) }
    }

    private func postedBy(_ delivery: PostHistory.Link) -> PostedByChain {
        let start = [PostedByChain.Step.delivery(cascadeDelivery(delivery))]
        guard let ordinal = history.postOrdinal(delivery.postID), let post = history.post(at: ordinal) else {
            return PostedByChain(
                steps: start, reachedRoot: false,
                notes: ["its post \(delivery.postID) is no longer kept" + forgottenSuffix])
        }
        return climb(from: start, post: post)
    }

    private func climb(from start: [PostedByChain.Step], post first: PostHistory.Post) -> PostedByChain {
        var steps = start
        var notes: [String] = []
        var post = first
        var visited: Set<UInt64> = []
        while true {
            steps.append(.post(cascadePost(post)))
            visited.insert(post.postID)
            if post.parentPostID == 0 {
                return PostedByChain(steps: steps, reachedRoot: true, notes: notes)
            }
            guard visited.count < Self.postedByLimit, !visited.contains(post.parentPostID) else {
                notes.append("stopped after \(visited.count) posts: the chain loops or is longer than the limit")
                break
            }
            guard let ordinal = history.postOrdinal(post.parentPostID),
                let parent = history.post(at: ordinal), parent.time <= post.time
            else {
                notes.append(
                    "post \(post.postID) was made inside a handler of post \(post.parentPostID), which is no longer kept"
                        + forgottenSuffix)
                break
            }
            let (deliveries, complete) = history.deliveries(of: parent)
            switch Self.placement(of: post, parent: parent, in: deliveries, complete: complete) {
            case .delivery(let index):
                steps.append(.delivery(cascadeDelivery(deliveries[index])))
            case .amongCalls(let reason):
                notes.append("post \(post.postID) was made inside a handler of post \(parent.postID), but " + reason)
            case .unknown:
                notes.append(
                    "post \(post.postID) was made inside a handler of post \(parent.postID) on "
                        + "\(threadLabel(post.thread)), but no kept delivery spans it: "
                        + missingDeliveryReason(complete: complete))
            }
            post = parent
        }
        return PostedByChain(steps: steps, reachedRoot: false, notes: notes)
    }

    /// Kept deliveries to any of `registrations`, oldest first.
    public func cascadeDeliveries(to registrations: Set<UInt64>) -> [CascadeDelivery] {
        history.deliveries(to: registrations).map { cascadeDelivery($0) }
    }

    /// The kept post with id `postID`.
    public func cascadePost(id postID: UInt64) -> PostInfo? {
        history.postOrdinal(postID).flatMap { history.post(at: $0) }.map { cascadePost($0) }
    }

    // MARK: Pieces

    /// Where a nested post sits among its parent's kept deliveries.
    enum Placement: Equatable {
        /// Under the delivery at this index.
        case delivery(Int)
        /// No kept delivery spans it.
        case unknown
        /// `AsyncMessage` calls of the parent may have made it, and the trace does not say which.
        case amongCalls(String)
    }

    /// The delivery of a nested post's parent that made it: on the nested post's thread, with a
    /// run that spans the nested post's time; or the one `AsyncMessage` call that spans it (a
    /// call's task may resume on another thread at each suspension, so its thread says nothing).
    /// A call's line comes when it ends, so one spanning call is the one only when every call of
    /// the parent has ended and is kept (`complete`, as many deliveries as registrations matched).
    static func placement(
        of nested: PostHistory.Post, parent: PostHistory.Post, in deliveries: [PostHistory.Link],
        complete: Bool
    ) -> Placement {
        let onThread = deliveries.lastIndex {
            $0.target != .task && $0.thread == nested.thread && $0.start <= nested.time && nested.time <= $0.end
        }
        if let onThread { return .delivery(onThread) }
        let calls = deliveries.indices.filter {
            deliveries[$0].target == .task && deliveries[$0].start <= nested.time && nested.time <= deliveries[$0].end
        }
        if calls.count > 1 { return .amongCalls(severalCallsReason) }
        guard let call = calls.first else { return .unknown }
        guard complete, parent.deliveries >= parent.matched else { return .amongCalls(unendedCallsReason) }
        return .delivery(call)
    }

    static let severalCallsReason =
        "several AsyncMessage calls of it were running, and the trace does not say which one posted"
    static let unendedCallsReason =
        "one AsyncMessage call of it spans it, but not every call of it has ended or is kept, "
        + "and the trace does not say which one posted"

    private func missingDeliveryReason(complete: Bool) -> String {
        if !complete { return "it may be among the deliveries pushed out of the kept history" }
        if eventsLost > 0 { return "its deliver line may be among the \(eventsLost) events lost in gaps" }
        return "the handler had not ended by the trace's end"
    }

    /// Why a post the trace refers to is not kept: pushed out, lost, or before the stream began.
    private var forgottenSuffix: String {
        var reasons: [String] = []
        if history.forgotPosts {
            reasons.append("cascades keep the last \(history.capacity) posts and deliveries")
        }
        if eventsLost > 0 { reasons.append("\(eventsLost) events were lost in gaps") }
        if reasons.isEmpty { reasons.append("the trace does not hold it: it was posted before the stream began") }
        return " (" + reasons.joined(separator: "; ") + ")"
    }

    func cascadePost(_ post: PostHistory.Post) -> PostInfo {
        PostInfo(
            seq: post.seq, postID: post.postID, name: post.name,
            center: carriesSeveralCenters ? centerLabel(post.center) : nil,
            object: post.object.map { definitions.object($0) },
            thread: post.thread, threadName: threadLabel(post.thread), site: definitions.callsite(post.callsite),
            time: post.time, depth: post.depth, parentPostID: post.parentPostID, matched: post.matched)
    }

    func cascadeDelivery(_ delivery: PostHistory.Link) -> CascadeDelivery {
        let row = registrationSlots[delivery.registration].map { rows[$0] }
        return CascadeDelivery(
            seq: delivery.seq, postID: delivery.postID, registration: delivery.registration,
            registrationName: row?.displayName ?? "?", site: row?.callsite, thread: delivery.thread,
            threadName: threadLabel(delivery.thread), postingThread: delivery.postingThread, target: delivery.target,
            start: delivery.start, duration: delivery.end >= delivery.start ? delivery.end - delivery.start : 0,
            wait: delivery.wait)
    }
}
