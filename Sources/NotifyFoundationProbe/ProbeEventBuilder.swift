package import NotifyWire

/// Turns ``ProbeLine``s into the trace events NotifyKit's inspector would send, so the model and
/// the views read a probed process like any other: threads, sites, objects and types are
/// introduced before the first line that names them.
///
/// Foundation's calls are matched up here: an add's return gives the token (a registration is its
/// center, name, object filter and number, as `_removeObserver` gets them); a delivery's closure is
/// tied to a live registration whose observer closure it carries and whose center and name fit the
/// running post of its thread; the link ends with the registration.
package struct ProbeEventBuilder {
    /// What the builder asks the system: names and places it cannot see in the lines.
    package struct Lookups {
        /// The kernel's name of a thread of the target.
        package var threadName: (Int32) -> String
        /// The call site for a call's return addresses (the first outside Foundation).
        package var site: ([UInt64]) -> ProbeSite
        /// A Swift type's name for its metadata address.
        package var typeName: (UInt64) -> String
        /// Whether a post's return addresses are those of a typed message's `post` (which calls
        /// `_post` from Foundation's own message code), and which protocol; nil for a notification.
        package var message: ([UInt64]) -> TraceMessageKind?

        package init(
            threadName: @escaping (Int32) -> String, site: @escaping ([UInt64]) -> ProbeSite,
            typeName: @escaping (UInt64) -> String, message: @escaping ([UInt64]) -> TraceMessageKind? = { _ in nil }
        ) {
            self.threadName = threadName
            self.site = site
            self.typeName = typeName
            self.message = message
        }
    }

    private struct RegistrationKey: Hashable {
        var center: UInt64
        var name: String?
        /// The object filter's identifier, 0 for none: Foundation numbers tokens per name and filter.
        var filter: UInt64
        var token: UInt64
    }

    /// A token without its center: what a removal from the wrong center shares with the token.
    private struct TokenKey: Hashable {
        var name: String?
        var filter: UInt64
        var token: UInt64

        init(_ key: RegistrationKey) {
            name = key.name
            filter = key.filter
            token = key.token
        }
    }

    private struct NameKey: Hashable {
        var center: UInt64
        var name: String?
    }

    private struct ClosureKey: Hashable {
        var function: UInt64
        var context: UInt64
    }

    private struct Registration {
        /// Nil for one found live: its name and filter were never seen.
        var key: RegistrationKey?
        /// Nil for one found live in a delivery whose post was not seen.
        var center: UInt64?
        var closure: ClosureKey
        var objectWord: UInt64?
        var boundContext: UInt64?
        var queue: PendingQueue?
        /// An `AsyncMessage` observer: its closure the probes see only enqueues the message.
        var enqueuesOnly = false
    }

    /// An `OperationQueue` observer being added: the queue's address and the app's block.
    private struct PendingQueue {
        var queue: UInt64
        var block: ClosureKey
    }

    private struct PendingAdd {
        var line: ProbeCall
        var object: ProbeObject?
        var closure: ClosureKey
        var name: String?
        var queue: PendingQueue?
    }

    /// Where a queue observer's block ran: the queue's thread, its start and end.
    private struct Hop {
        var thread: Int32
        var start: UInt64
        var end: UInt64?
    }

    private struct RunningDelivery {
        var start: UInt64
        /// Nil for a delivery tied to no live registration (counted, not written).
        var registration: UInt64?
        var post: PostInProgress?
        var hop: Hop?
    }

    private struct PostInProgress {
        var id: UInt64
        var center: UInt64
        var name: String
        var thread: UInt64
        var depth: Int
        var message: TraceMessageKind?
    }

    private let pid: Int32
    private let lookups: Lookups
    private var seq: UInt64 = 0
    private var threads: [Int32: UInt64] = [:]
    private var sites: [ProbeSite: UInt64] = [:]
    private var types: [UInt64: UInt64] = [:]
    private var objects: [UInt64: UInt64] = [:]
    /// ``Lookups/message`` by a post's first return address, asked once per address.
    private var messageByCaller: [UInt64: TraceMessageKind?] = [:]
    private var nextDefinition: UInt64 = 1
    private var nextRegistration: UInt64 = 1
    private var nextPost: UInt64 = 1
    private var pendingAdds: [Int32: PendingAdd] = [:]
    private var registrations: [UInt64: Registration] = [:]
    private var byKey: [RegistrationKey: UInt64] = [:]
    /// Live registrations by center and name (nil: every name), for a post's `matched`.
    private var byName: [NameKey: Set<UInt64>] = [:]
    /// Live registrations by their observer closure, oldest first.
    private var byClosure: [ClosureKey: [UInt64]] = [:]
    private var byContext: [UInt64: UInt64] = [:]
    private var currentPost: [Int32: PostInProgress] = [:]
    private var running: [Int32: [RunningDelivery]] = [:]
    private var pendingQueues: [Int32: PendingQueue] = [:]
    /// Live queue registrations by their block, to tie an operation to its registration.
    private var byBlock: [ClosureKey: [UInt64]] = [:]
    /// The queue operations running on each thread: the posting thread and registration of each.
    private var operations: [Int32: [(postingThread: Int32, registration: UInt64)]] = [:]
    /// Live tokens by their name, filter and number on any center, with how many centers hold each.
    private var liveTokens: [TokenKey: Int] = [:]
    /// Tokens the probes saw removed and not added again since: a second removal is a miss.
    /// Bounded: emptied when full, so a miss after that is only counted.
    private var removedKeys: Set<RegistrationKey> = []
    private static let removedKeysLimit = 65_536
    /// The object a missed removal names: Foundation's token, whose address the probes do not see.
    private var tokenObject: UInt64?
    /// Lines that could not be tied to what they belong to (a delivery's end with no start, a
    /// removal of a registration made before the probes attached).
    package private(set) var unmatched = 0
    /// Deliveries whose closure a live registration carries but none of its center and name fit
    /// the running post: not written (each is a gap `probe-delivery-unmatched`).
    package private(set) var unmatchedDeliveries = 0
    /// Adds that reused a live registration's center, name, filter and number: that one had
    /// ended unseen (its center died and another took its address, or its removal was lost).
    package private(set) var endedUnseen = 0

    package init(pid: Int32, lookups: Lookups) {
        self.pid = pid
        self.lookups = lookups
    }

    /// The events one line makes, appended to `events`.
    package mutating func add(_ line: ProbeLine, to events: inout [TraceEvent]) {
        switch line {
        case .ready, .exec: break
        case .lost(let count): lose(count, reason: "probe-buffer-full", to: &events)
        case .add(let call, let object, let function, let context, let name):
            lastTime = call.time
            pendingAdds[call.thread] = PendingAdd(
                line: call, object: object, closure: ClosureKey(function: function, context: context), name: name.text,
                queue: pendingQueues.removeValue(forKey: call.thread))
        case .added(let thread, let time, let token, let filter):
            lastTime = time
            guard let pending = pendingAdds.removeValue(forKey: thread) else {
                unmatched += 1
                return
            }
            register(pending, token: token, filter: filter, events: &events)
        case .post(let call, let object, let name):
            lastTime = call.time
            post(call, object: object, name: name.text ?? "", events: &events)
        case .remove(let call, let token, let filter, let name):
            lastTime = call.time
            remove(
                call, key: RegistrationKey(center: call.center, name: name.text, filter: filter, token: token),
                events: &events)
        case .deliveryStart(let thread, let time, let context, let function, let closureContext):
            lastTime = time
            // Without return probes on the closure, the post's previous delivery ends here; so does
            // one of a post made before the probes attached (neither has a post seen).
            if let post = currentPost[thread] {
                if running[thread]?.last?.post?.id == post.id {
                    endDelivery(thread: thread, time: time, events: &events)
                }
            } else if let last = running[thread]?.last, last.post == nil {
                endDelivery(thread: thread, time: time, events: &events)
            }
            startDelivery(
                thread: thread, time: time, context: context,
                closure: ClosureKey(function: function, context: closureContext), events: &events)
        case .deliveryEnd(let thread, let time):
            lastTime = time
            endDelivery(thread: thread, time: time, events: &events)
        case .postEnd(let thread, let time):
            lastTime = time
            guard let post = currentPost[thread] else {
                // A post made before the probes attached returned: its last delivery is over.
                if let last = running[thread]?.last, last.post == nil {
                    endDelivery(thread: thread, time: time, events: &events)
                } else {
                    unmatched += 1
                }
                return
            }
            if running[thread]?.last?.post?.id == post.id { endDelivery(thread: thread, time: time, events: &events) }
            // Back in the delivery (and its post) this post was made from, if any.
            currentPost[thread] = running[thread]?.last?.post
        case .queueAdd(let thread, let time, let queue, let function, let context):
            lastTime = time
            pendingQueues[thread] = PendingQueue(queue: queue, block: ClosureKey(function: function, context: context))
        case .operationStart(let thread, let time, let function, let context):
            lastTime = time
            startOperation(thread: thread, time: time, block: ClosureKey(function: function, context: context))
        case .operationEnd(let thread, let time):
            lastTime = time
            endOperation(thread: thread, time: time)
        }
    }

    /// `count` lines were lost (bpftrace's buffer was full, or notifytop skipped them): a gap.
    package mutating func lose(_ count: UInt64, reason: TraceGapReason, to events: inout [TraceEvent]) {
        events.append(.gap(TraceGap(seq: nextSeq(), timestamp: lastTime, count: count, reason: reason)))
        // Which starts and ends were lost is unknown: the running handlers and posts are
        // forgotten rather than paired wrongly (a handler then running is not reported).
        unmatched += running.values.reduce(0) { $0 + $1.count }
        running.removeAll()
        currentPost.removeAll()
        pendingAdds.removeAll()
        pendingQueues.removeAll()
        operations.removeAll()
    }

    /// The time of the latest line, for lines the probes do not time (gaps, ticks).
    package private(set) var lastTime: UInt64 = 0

    /// The next event number, for lines the caller adds (ticks, the end).
    package mutating func nextSeq() -> UInt64 {
        seq += 1
        return seq
    }

    private mutating func register(_ pending: PendingAdd, token: UInt64, filter: UInt64, events: inout [TraceEvent]) {
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
            key: key, center: call.center, closure: pending.closure, objectWord: pending.object?.word,
            queue: pending.queue)
        if let queue = pending.queue { byBlock[queue.block, default: []].append(id) }
        byKey[key] = id
        liveTokens[TokenKey(key), default: 0] += 1
        removedKeys.remove(key)
        byName[NameKey(center: call.center, name: pending.name), default: []].insert(id)
        byClosure[pending.closure, default: []].append(id)
        events.append(
            .registered(
                TraceRegistration(
                    seq: nextSeq(), timestamp: call.time, thread: thread, id: id, name: pending.name, kind: .block,
                    observer: nil, object: object, target: pending.queue == nil ? .posting : .operationQueue,
                    targetLabel: pending.queue.map { "OperationQueue 0x" + String($0.queue, radix: 16) },
                    callsite: site,
                    preexisting: false, capturesObserverStrongly: false)))
    }

    private mutating func post(_ call: ProbeCall, object: ProbeObject?, name: String, events: inout [TraceEvent]) {
        let thread = threadID(call.thread, time: call.time, events: &events)
        let objectID = object.map { self.objectID($0, events: &events) }
        let site = siteID(lookups.site(call.callers), events: &events)
        let outer = running[call.thread]?.last?.post
        let id = nextPost
        nextPost += 1
        let depth = (running[call.thread]?.count ?? 0) + 1
        var matched = 0
        for names in [NameKey(center: call.center, name: name), NameKey(center: call.center, name: nil)] {
            for id in byName[names] ?? [] {
                guard let filter = registrations[id]?.objectWord else {
                    matched += 1
                    continue
                }
                if filter == object?.word { matched += 1 }
            }
        }
        let caller = call.callers.first ?? 0
        let message: TraceMessageKind?
        if let known = messageByCaller[caller] {
            message = known
        } else {
            message = lookups.message(call.callers)
            messageByCaller[caller] = message
        }
        currentPost[call.thread] = PostInProgress(
            id: id, center: call.center, name: name, thread: thread, depth: depth, message: message)
        events.append(
            .posted(
                TracePost(
                    seq: nextSeq(), timestamp: call.time, thread: thread, postID: id, name: name, object: objectID,
                    hasUserInfo: false, matched: matched, depth: depth, parentPostID: outer?.id ?? 0, callsite: site,
                    message: message)))
    }

    private mutating func remove(_ call: ProbeCall, key: RegistrationKey, events: inout [TraceEvent]) {
        let thread = threadID(call.thread, time: call.time, events: &events)
        let site = siteID(lookups.site(call.callers), events: &events)
        guard let id = byKey[key] else {
            // A token this center does not hold. Reported when the probes saw it: another center's,
            // or one already removed; else it may be one added before they attached.
            unmatched += 1
            guard liveTokens[TokenKey(key)] != nil || removedKeys.contains(key) else { return }
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

    /// Ends a live registration's links: its key, name, closure, block and delivery context.
    private mutating func forget(_ id: UInt64) {
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
            byName[NameKey(center: key.center, name: key.name)]?.remove(id)
        }
        byClosure[registration.closure]?.removeAll { $0 == id }
        if byClosure[registration.closure]?.isEmpty == true { byClosure[registration.closure] = nil }
        if let queue = registration.queue { byBlock[queue.block]?.removeAll { $0 == id } }
        if let context = registration.boundContext, byContext[context] == id { byContext[context] = nil }
    }

    /// Whether a delivery of `closure` during `post` may be `registration`'s: the same observer
    /// closure, the post's center, and its name (or every name). One found live was seen only by
    /// its closure and center.
    private func fits(_ registration: Registration, closure: ClosureKey, post: PostInProgress?) -> Bool {
        guard registration.closure == closure else { return false }
        guard let post else { return registration.key.map { $0.name == nil } ?? true }
        guard registration.center.map({ $0 == post.center }) ?? true else { return false }
        return registration.key.map { $0.name == nil || $0.name == post.name } ?? true
    }

    private mutating func missedToken(events: inout [TraceEvent]) -> UInt64 {
        if let tokenObject { return tokenObject }
        let type = newDefinition()
        events.append(.type(TraceType(id: type, name: "NotificationCenter._NotificationObserverToken")))
        let id = newDefinition()
        events.append(.object(TraceObject(id: id, type: type, address: 0)))
        tokenObject = id
        return id
    }

    private mutating func startDelivery(
        thread: Int32, time: UInt64, context: UInt64, closure: ClosureKey, events: inout [TraceEvent]
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
        if id == nil, byClosure[closure] != nil {
            // Live registrations carry this closure but none fits this post: tied to none.
            unmatchedDeliveries += 1
            events.append(
                .gap(TraceGap(seq: nextSeq(), timestamp: time, count: 1, reason: "probe-delivery-unmatched")))
            running[thread, default: []].append(RunningDelivery(start: time, registration: nil, post: post))
            return
        }
        if id == nil {
            // Registered before the probes attached, or a typed message's observer (whose add does
            // not pass the probed entry): introduced now, as found live.
            let registering = threadID(thread, time: time, events: &events)
            let site = siteID(post?.message == nil ? ProbeSite.beforeAttach : ProbeSite.typedObserver, events: &events)
            let found = nextRegistration
            nextRegistration += 1
            registrations[found] = Registration(
                center: post?.center, closure: closure, boundContext: context,
                enqueuesOnly: post?.message == .async)
            byClosure[closure, default: []].append(found)
            byContext[context] = found
            id = found
            let kind: TraceRegistrationKind =
                switch post?.message {
                case .mainActor: .mainActorMessage
                case .async: .asyncMessage
                case nil: .block
                }
            events.append(
                .registered(
                    TraceRegistration(
                        seq: nextSeq(), timestamp: time, thread: registering, id: found, name: post?.name, kind: kind,
                        observer: nil, object: nil, target: post?.message == .async ? .task : .posting,
                        targetLabel: nil, callsite: site, preexisting: true, capturesObserverStrongly: false)))
        }
        running[thread, default: []].append(RunningDelivery(start: time, registration: id!, post: post))
    }

    private mutating func endDelivery(thread: Int32, time: UInt64, events: inout [TraceEvent]) {
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
        guard let registration = delivery.registration else { return }
        // An async message observer's run happens later, on a task the probes do not see.
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
    private mutating func startOperation(thread: Int32, time: UInt64, block: ClosureKey) {
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

    private mutating func endOperation(thread: Int32, time: UInt64) {
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

    private mutating func threadID(_ tid: Int32, time: UInt64, events: inout [TraceEvent]) -> UInt64 {
        if let id = threads[tid] { return id }
        let id = UInt64(threads.count + 1)
        threads[tid] = id
        events.append(
            .thread(
                TraceThread(
                    seq: nextSeq(), timestamp: time, id: id, systemID: tid, name: lookups.threadName(tid),
                    isMain: tid == pid)))
        return id
    }

    private mutating func siteID(_ site: ProbeSite, events: inout [TraceEvent]) -> UInt64 {
        if let id = sites[site] { return id }
        let id = newDefinition()
        sites[site] = id
        events.append(.callsite(TraceCallsite(id: id, file: site.file, line: site.line)))
        return id
    }

    private mutating func objectID(_ object: ProbeObject, events: inout [TraceEvent]) -> UInt64 {
        if let id = objects[object.word] { return id }
        let type: UInt64
        if let known = types[object.type] {
            type = known
        } else {
            type = newDefinition()
            types[object.type] = type
            events.append(.type(TraceType(id: type, name: lookups.typeName(object.type))))
        }
        let id = newDefinition()
        objects[object.word] = id
        events.append(.object(TraceObject(id: id, type: type, address: object.word)))
        return id
    }

    private mutating func newDefinition() -> UInt64 {
        defer { nextDefinition += 1 }
        return nextDefinition
    }
}
