import NotifyWire

/// Posts and the deliveries they run: a post's `matched` and name, a delivery's end (where the
/// post's next one starts or the post returns), a queue observer's block on the queue's thread.
extension ProbeEventBuilder {
    mutating func post(
        _ call: ProbeCall, object: ProbeObject?, metadata: UInt64?, name probedName: String, events: inout [TraceEvent]
    ) {
        let thread = threadID(call.thread, time: call.time, events: &events)
        let objectID = object.map { self.objectID($0, events: &events) }
        let site = siteID(lookups.site(call.callers), events: &events)
        let outer = running[call.thread]?.last?.post
        let id = nextPost
        nextPost += 1
        let depth = (running[call.thread]?.count ?? 0) + 1
        var matched = 0
        let caller = call.callers.first ?? 0
        let message: TraceMessageKind?
        if let known = messageByCaller[caller] {
            message = known
        } else {
            message = lookups.message(call.callers)
            messageByCaller[caller] = message
        }
        // A typed message is named after its type, whole; else as Foundation posts it.
        var name = probedName
        if message != nil, let metadata, let readable = messageName(metadata) { name = readable }
        for names in [NameKey(center: call.center, name: name), NameKey(center: call.center, name: nil)] {
            for id in byName[names] ?? [] {
                guard let filter = registrations[id]?.objectWord else {
                    matched += 1
                    continue
                }
                if filter == object?.word { matched += 1 }
            }
        }
        currentPost[call.thread] = PostInProgress(
            id: id, center: call.center, name: name, thread: thread, depth: depth, message: message)
        let center = streamCenter(call.center, events: &events)
        events.append(
            .posted(
                TracePost(
                    seq: nextSeq(), timestamp: call.time, thread: thread, postID: id, name: name, object: objectID,
                    hasUserInfo: false, matched: matched, depth: depth, parentPostID: outer?.id ?? 0, callsite: site,
                    message: message, center: center)))
    }

    mutating func endDelivery(thread: Int32, time: UInt64, events: inout [TraceEvent]) {
        guard let delivery = running[thread]?.popLast() else {
            unmatched += 1
            return
        }
        // Back in the post whose handler this was.
        currentPost[thread] = delivery.post
        guard let post = delivery.post else {
            unmatched += 1
            return
        }
        if let unbound = delivery.unbound {
            // No sequence named it: the enqueue of an `AsyncMessage` observer made before the
            // probes attached (not a run), unless lines are known lost.
            if tally.trustsOrphans {
                _ = foundLive(
                    thread: thread, time: time, context: unbound.context, closure: unbound.closure, post: post,
                    events: &events)
            } else {
                unmatched += 1
            }
            return
        }
        guard let registration = delivery.registration else { return }
        // An async message observer's run happens later, on a task (waiting since the enqueue started).
        if registrations[registration]?.enqueuesOnly == true { return }
        let isQueued = registrations[registration]?.queue != nil
        // A queue observer's block ran on the queue's thread while the post waited; when the queue
        // was the posting thread's own, it ran inline.
        var ran = (thread: thread, start: delivery.start, end: time)
        if let hop = delivery.hop, let end = hop.end { ran = (hop.thread, hop.start, end) }
        let delivering = threadID(ran.thread, time: ran.end, events: &events)
        events.append(
            .delivered(
                TraceDelivery(
                    seq: nextSeq(), timestamp: time, thread: delivering, postID: post.id,
                    registration: registration, name: post.name, postingThread: post.thread,
                    target: isQueued ? .operationQueue : .posting, start: ran.start, duration: ran.end &- ran.start,
                    wait: ran.start &- delivery.start, depth: post.depth)))
    }

    /// A queue observer's block starts on the queue's thread: it belongs to the oldest running
    /// delivery of a registration with that block that has not started its operation yet.
    mutating func startOperation(thread: Int32, time: UInt64, block: ClosureKey) {
        let ids = byBlock[block] ?? []
        var found: (thread: Int32, index: Int, start: UInt64)?
        for (posting, stack) in running {
            for (index, delivery) in stack.enumerated()
            where delivery.hop == nil && delivery.registration.map(ids.contains) == true {
                if found.map({ delivery.start < $0.start }) ?? true { found = (posting, index, delivery.start) }
            }
        }
        guard let found else {
            unmatched += 1
            return
        }
        running[found.thread]![found.index].hop = Hop(thread: thread, start: time)
        operations[thread, default: []].append((found.thread, running[found.thread]![found.index].registration!))
    }

    mutating func endOperation(thread: Int32, time: UInt64) {
        guard let operation = operations[thread]?.popLast(),
            let index = running[operation.postingThread]?.lastIndex(where: {
                $0.registration == operation.registration && $0.hop?.thread == thread && $0.hop?.end == nil
            })
        else {
            unmatched += 1
            return
        }
        running[operation.postingThread]![index].hop?.end = time
    }
}
