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
        switch kind {
        case .async:
            // Its delivery closure calls an enqueue, not the observer: tied at its first delivery.
            registration.enqueuesOnly = true
            registration.asyncObserver = pending.closure
            asyncUnbound[pending.closure, default: []].append(id)
        case .sequence:
            // The add line carries the iterator: tied at the first delivery that names it.
            registration.sequence = pending.closure.context
            bySequence[pending.closure.context] = id
        case .mainActor:
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
                    kind: kind == .mainActor ? .mainActorMessage : .asyncMessage, observer: nil, object: object,
                    target: kind == .async ? .task : .posting,
                    targetLabel: kind == .sequence ? Self.sequenceLabel : nil,
                    callsite: site, preexisting: false,
                    capturesObserverStrongly: false, center: center)))
    }

    /// What a sequence's registration targets: its iterator's buffer, filled inside the post.
    static let sequenceLabel = "message sequence"

    /// A posted message reached a sequence's buffer: the thread's running delivery, when no live
    /// registration carried its closure, is that sequence's, and so are its later deliveries.
    mutating func sequenceDelivered(thread: Int32, time: UInt64, iterator: UInt64, events: inout [TraceEvent]) {
        guard let index = running[thread]?.indices.last else {
            unmatched += 1
            return
        }
        // Already tied through its closure: a later delivery of a sequence seen before.
        guard let unbound = running[thread]![index].unbound else { return }
        running[thread]![index].unbound = nil
        var id = bySequence[iterator]
        if id == nil {
            // Made before the probes attached; unless lines are known lost (its add may be among them).
            guard tally.trustsOrphans else {
                unmatched += 1
                return
            }
            id = foundLive(
                thread: thread, time: time, context: unbound.context, closure: unbound.closure,
                post: running[thread]![index].post, sequence: iterator, events: &events)
        }
        guard let id, let previous = registrations[id]?.closure else { return }
        byClosure[previous]?.removeAll { $0 == id }
        if byClosure[previous]?.isEmpty == true { byClosure[previous] = nil }
        registrations[id]?.closure = unbound.closure
        registrations[id]?.boundContext = unbound.context
        byClosure[unbound.closure, default: []].append(id)
        byContext[unbound.context] = id
        running[thread]![index].registration = id
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

    /// An `AsyncMessage` observer's enqueue started: its run may start on a pool thread before the
    /// enqueue returns, so it waits from here.
    mutating func awaitRun(of observer: ClosureKey, registration: UInt64, post: PostInProgress, enqueued: UInt64) {
        // Enqueues whose run start was lost would pile up: bounded, the rest only counted.
        if pendingRunCount >= Self.pendingRunLimit {
            unmatched += pendingRunCount
            pendingRuns.removeAll()
            pendingRunCount = 0
        }
        pendingRuns[observer, default: []].append(
            PendingRun(registration: registration, post: post, enqueued: enqueued))
        pendingRunCount += 1
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
