import NotifyWire

/// Typed messages: a `MainActorMessage` or `AsyncMessage` observer's add (its token as Foundation
/// returns it, its name read whole from the message type), an `AsyncMessage` observer's enqueue
/// (not a run) and its run on the cooperative pool (the delivery).
extension ProbeEventBuilder {
    /// The readable name of the message type with `metadata`, asked once.
    mutating func messageName(_ metadata: UInt64) -> String? {
        if let known = messageNames[metadata] { return known }
        if messageNames.count >= Self.pendingRunLimit { messageNames.removeAll() }
        let name = lookups.messageName(metadata)
        messageNames[metadata] = .some(name)
        return name
    }

    mutating func registerTyped(
        _ pending: PendingAdd, kind: TypedAddKind, name: String?, key: RegistrationKey, events: inout [TraceEvent]
    ) {
        let call = pending.line
        let thread = threadID(call.thread, time: call.time, events: &events)
        let object = pending.object.map { objectID($0, events: &events) }
        let site = siteID(lookups.site(call.callers), events: &events)
        let id = nextRegistration
        nextRegistration += 1
        if let stale = byKey[key] {
            endedUnseen += 1
            forget(stale)
        }
        var registration = Registration(
            key: key, name: name, center: call.center, closure: pending.closure, objectWord: pending.object?.word)
        if kind == .async {
            // Its delivery closure calls an enqueue, not the observer: tied at its first delivery.
            registration.enqueuesOnly = true
            registration.asyncObserver = pending.closure
            asyncUnbound[pending.closure, default: []].append(id)
        } else {
            byClosure[pending.closure, default: []].append(id)
        }
        registrations[id] = registration
        byKey[key] = id
        liveTokens[TokenKey(key), default: 0] += 1
        removedKeys.remove(key)
        byName[NameKey(center: call.center, name: name), default: []].insert(id)
        let center = streamCenter(call.center, events: &events)
        events.append(
            .registered(
                TraceRegistration(
                    seq: nextSeq(), timestamp: call.time, thread: thread, id: id, name: name,
                    kind: kind == .async ? .asyncMessage : .mainActorMessage, observer: nil, object: object,
                    target: kind == .async ? .task : .posting, targetLabel: nil, callsite: site, preexisting: false,
                    capturesObserverStrongly: false, center: center)))
    }

    /// The `AsyncMessage` registration an enqueue closure belongs to: the oldest not yet tied whose
    /// observer is the one the enqueue holds (`inner`) and whose center and name fit the post.
    mutating func bindEnqueue(closure: ClosureKey, inner: ClosureKey, post: PostInProgress?) -> UInt64? {
        guard let post, let candidates = asyncUnbound[inner],
            let index = candidates.firstIndex(where: { id in
                registrations[id].map { $0.center == post.center && ($0.name == nil || $0.name == post.name) }
                    ?? false
            })
        else { return nil }
        let id = candidates[index]
        asyncUnbound[inner]?.remove(at: index)
        if asyncUnbound[inner]?.isEmpty == true { asyncUnbound[inner] = nil }
        registrations[id]?.closure = closure
        byClosure[closure, default: []].append(id)
        return id
    }

    /// An `AsyncMessage` observer's run starts: the oldest enqueue waiting for that observer.
    mutating func startAsyncRun(thread: Int32, time: UInt64, frame: UInt64, observer: ClosureKey) {
        guard var waiting = pendingRuns[observer], !waiting.isEmpty else {
            unmatched += 1
            return
        }
        let pending = waiting.removeFirst()
        pendingRuns[observer] = waiting.isEmpty ? nil : waiting
        pendingRunCount -= 1
        // Runs whose end was lost would pile up: bounded, the rest only counted.
        if asyncRuns.count >= Self.pendingRunLimit {
            unmatched += asyncRuns.count
            asyncRuns.removeAll()
        }
        asyncRuns[frame] = AsyncRun(pending: pending, thread: thread, start: time)
    }

    /// The run whose start had `frame` ended: the observer's delivery, on the thread it started on.
    mutating func endAsyncRun(thread: Int32, time: UInt64, frame: UInt64, events: inout [TraceEvent]) {
        guard let run = asyncRuns.removeValue(forKey: frame) else {
            unmatched += 1
            return
        }
        let post = run.pending.post
        let delivering = threadID(run.thread, time: run.start, events: &events)
        events.append(
            .delivered(
                TraceDelivery(
                    seq: nextSeq(), timestamp: time, thread: delivering, postID: post.id,
                    registration: run.pending.registration, name: post.name, postingThread: post.thread,
                    target: .task, start: run.start, duration: time &- run.start,
                    wait: run.start &- run.pending.enqueued, depth: post.depth)))
    }
}
