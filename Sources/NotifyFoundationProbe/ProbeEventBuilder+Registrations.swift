import NotifyWire

/// How adds, removals and deliveries are tied to Foundation's tokens: a registration is its center,
/// name, object filter and number; a delivery goes to a live registration whose closure, center and
/// name fit its post; a removal of a token the center does not hold, when the probes saw that token,
/// is a missed removal.
extension ProbeEventBuilder {
    mutating func register(_ pending: PendingAdd, token: UInt64, filter: UInt64, events: inout [TraceEvent]) {
        let call = pending.line
        let thread = threadID(call.thread, time: call.time, events: &events)
        let object = pending.object.map { objectID($0, events: &events) }
        let site = siteID(lookups.site(call.callers), events: &events)
        let id = nextRegistration
        nextRegistration += 1
        let key = RegistrationKey(center: call.center, name: pending.name, filter: filter, token: token)
        if let stale = byKey[key] {
            endedUnseen += 1
            forget(stale)
        }
        registrations[id] = Registration(
            key: key, name: pending.name, center: call.center, closure: pending.closure,
            objectWord: pending.object?.word, queue: pending.queue)
        if let queue = pending.queue { byBlock[queue.block, default: []].append(id) }
        byKey[key] = id
        liveTokens[TokenKey(key), default: 0] += 1
        removedKeys.remove(key)
        byName[NameKey(center: call.center, name: pending.name), default: []].insert(id)
        byClosure[pending.closure, default: []].append(id)
        let center = streamCenter(call.center, events: &events)
        events.append(
            .registered(
                TraceRegistration(
                    seq: nextSeq(), timestamp: call.time, thread: thread, id: id, name: pending.name, kind: .block,
                    observer: nil, object: object, target: pending.queue == nil ? .posting : .operationQueue,
                    targetLabel: pending.queue.map {
                        $0.isMain ? "main queue" : "OperationQueue 0x" + String($0.queue, radix: 16)
                    },
                    callsite: site,
                    preexisting: false, capturesObserverStrongly: false, center: center)))
    }

    mutating func remove(_ call: ProbeCall, key: RegistrationKey, events: inout [TraceEvent]) {
        let thread = threadID(call.thread, time: call.time, events: &events)
        let site = siteID(lookups.site(call.callers), events: &events)
        guard let id = byKey[key] else {
            // A token this center does not hold. Reported when the probes saw it: another center's,
            // or one already removed; else it may be one added before they attached.
            // While lines are known lost, the token's add (again) may be among them.
            unmatched += 1
            guard tally.trustsOrphans, liveTokens[TokenKey(key)] != nil || removedKeys.contains(key) else { return }
            events.append(
                .removeMissed(
                    TraceMissedRemoval(
                        seq: nextSeq(), timestamp: call.time, thread: thread, observer: missedToken(events: &events),
                        name: key.name, callsite: site)))
            return
        }
        forget(id)
        if removedKeys.count >= Self.removedKeysLimit { removedKeys.removeAll() }
        removedKeys.insert(key)
        events.append(
            .removed(
                TraceRemoval(
                    seq: nextSeq(), timestamp: call.time, thread: thread, registration: id, reason: .explicit,
                    callsite: site)))
    }

    /// A center deallocated: each of its live registrations ends with it.
    mutating func endCenter(_ center: UInt64, thread: Int32, time: UInt64, events: inout [TraceEvent]) {
        forgetCenter(center)
        let ended = registrations.filter { $0.value.center == center }.keys.sorted()
        guard !ended.isEmpty else { return }
        let threadID = threadID(thread, time: time, events: &events)
        for id in ended {
            forget(id)
            events.append(
                .removed(
                    TraceRemoval(
                        seq: nextSeq(), timestamp: time, thread: threadID, registration: id,
                        reason: .centerDeallocated)))
        }
    }

    /// Ends a live registration's links: its key, name, closure, block and delivery context.
    mutating func forget(_ id: UInt64) {
        guard let registration = registrations.removeValue(forKey: id) else { return }
        if let key = registration.key {
            if byKey[key] == id {
                byKey[key] = nil
                let token = TokenKey(key)
                if let count = liveTokens[token], count > 1 {
                    liveTokens[token] = count - 1
                } else {
                    liveTokens[token] = nil
                }
            }
            byName[NameKey(center: key.center, name: registration.name)]?.remove(id)
        }
        if let observer = registration.asyncObserver {
            asyncUnbound[observer]?.removeAll { $0 == id }
            if asyncUnbound[observer]?.isEmpty == true { asyncUnbound[observer] = nil }
        }
        byClosure[registration.closure]?.removeAll { $0 == id }
        if byClosure[registration.closure]?.isEmpty == true { byClosure[registration.closure] = nil }
        if let queue = registration.queue { byBlock[queue.block]?.removeAll { $0 == id } }
        if let context = registration.boundContext, byContext[context] == id { byContext[context] = nil }
        if let iterator = registration.sequence, bySequence[iterator] == id { bySequence[iterator] = nil }
    }

    /// Whether a delivery of `closure` during `post` may be `registration`'s: the same observer
    /// closure, the post's center, and its name (or every name). One found live was seen only by
    /// its closure and center.
    func fits(_ registration: Registration, closure: ClosureKey, post: PostInProgress?) -> Bool {
        guard registration.closure == closure else { return false }
        guard let post else { return registration.key.map { _ in registration.name == nil } ?? true }
        guard registration.center.map({ $0 == post.center }) ?? true else { return false }
        return registration.key.map { _ in registration.name == nil || registration.name == post.name } ?? true
    }

    mutating func missedToken(events: inout [TraceEvent]) -> UInt64 {
        if let tokenObject { return tokenObject }
        let type = newDefinition()
        events.append(.type(TraceType(id: type, name: "NotificationCenter._NotificationObserverToken")))
        let id = newDefinition()
        events.append(.object(TraceObject(id: id, type: type, address: 0)))
        tokenObject = id
        return id
    }

    mutating func startDelivery(
        thread: Int32, time: UInt64, context: UInt64, closure: ClosureKey, inner: ClosureKey? = nil,
        events: inout [TraceEvent]
    ) {
        let post = currentPost[thread]
        var id: UInt64?
        // The registration this context ran for before, while it is live and still fits: a
        // context freed with its registration may come back for another.
        if let bound = byContext[context] {
            if let registration = registrations[bound], fits(registration, closure: closure, post: post) {
                id = bound
            } else {
                byContext[context] = nil
                registrations[bound]?.boundContext = nil
            }
        }
        // Else the oldest live registration of this closure not yet tied that fits the post: one
        // closure may observe several names.
        if id == nil,
            let first = byClosure[closure]?.first(where: { candidate in
                registrations[candidate].map { $0.boundContext == nil && fits($0, closure: closure, post: post) }
                    ?? false
            })
        {
            registrations[first]?.boundContext = context
            byContext[context] = first
            id = first
        }
        // Else an `AsyncMessage` observer's first enqueue: its closure holds the observer's.
        if id == nil, let inner, let bound = bindEnqueue(closure: closure, inner: inner, post: post) {
            registrations[bound]?.boundContext = context
            byContext[context] = bound
            id = bound
        }
        if id == nil, byClosure[closure] != nil {
            // Live registrations carry this closure but none fits this post: tied to none.
            unmatchedDeliveries += 1
            events.append(
                .gap(TraceGap(seq: nextSeq(), timestamp: time, count: 1, reason: "probe-delivery-unmatched")))
            running[thread, default: []].append(RunningDelivery(start: time, registration: nil, post: post))
            return
        }
        if id == nil, post?.message == .async {
            // A sequence's (its next line names the iterator) or an enqueue of an observer made
            // before the probes attached: told apart by the time it ends.
            running[thread, default: []].append(
                RunningDelivery(start: time, registration: nil, post: post, unbound: (context, closure)))
            return
        }
        if id == nil, !tally.trustsOrphans {
            // Lines are known lost: its registration may be among them, so none is made up.
            unmatched += 1
            running[thread, default: []].append(RunningDelivery(start: time, registration: nil, post: post))
            return
        }
        if id == nil {
            // Registered before the probes attached, or a typed message's observer whose add was
            // not seen: introduced now, as found live.
            id = foundLive(thread: thread, time: time, context: context, closure: closure, post: post, events: &events)
        }
        if let post, let observer = registrations[id!]?.asyncObserver {
            awaitRun(of: observer, registration: id!, post: post, enqueued: time)
        }
        running[thread, default: []].append(RunningDelivery(start: time, registration: id!, post: post))
    }

    /// A registration first seen at a delivery of `closure` during `post` (or, for `sequence`, a
    /// delivery naming that iterator): introduced now, as found live, with the post's center and name.
    mutating func foundLive(
        thread: Int32, time: UInt64, context: UInt64, closure: ClosureKey, post: PostInProgress?,
        sequence: UInt64? = nil, events: inout [TraceEvent]
    ) -> UInt64 {
        let registering = threadID(thread, time: time, events: &events)
        let site = siteID(post?.message == nil ? ProbeSite.beforeAttach : ProbeSite.typedObserver, events: &events)
        let found = nextRegistration
        nextRegistration += 1
        registrations[found] = Registration(
            name: post?.name, center: post?.center, closure: closure, boundContext: context,
            enqueuesOnly: post?.message == .async && sequence == nil, sequence: sequence)
        byClosure[closure, default: []].append(found)
        byContext[context] = found
        if let sequence { bySequence[sequence] = found }
        let kind: TraceRegistrationKind =
            switch post?.message {
            case .mainActor: .mainActorMessage
            case .async: .asyncMessage
            case nil: .block
            }
        let center = streamCenter(post?.center, events: &events)
        let enqueues = post?.message == .async && sequence == nil
        events.append(
            .registered(
                TraceRegistration(
                    seq: nextSeq(), timestamp: time, thread: registering, id: found, name: post?.name, kind: kind,
                    observer: nil, object: nil, target: enqueues ? .task : .posting,
                    targetLabel: sequence == nil ? nil : Self.sequenceLabel, callsite: site, preexisting: true,
                    capturesObserverStrongly: false, center: center)))
        return found
    }
}
