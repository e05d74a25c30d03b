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
        /// A typed message's readable name, whole, from its type's metadata; nil when the
        /// metadata has no symbol (the name Foundation posts it under is shown then).
        package var messageName: (UInt64) -> String?

        package init(
            threadName: @escaping (Int32) -> String, site: @escaping ([UInt64]) -> ProbeSite,
            typeName: @escaping (UInt64) -> String, message: @escaping ([UInt64]) -> TraceMessageKind? = { _ in nil },
            messageName: @escaping (UInt64) -> String? = { _ in nil }
        ) {
            self.threadName = threadName
            self.site = site
            self.typeName = typeName
            self.message = message
            self.messageName = messageName
        }
    }

    struct RegistrationKey: Hashable {
        var center: UInt64
        var name: String?
        /// The object filter's identifier, 0 for none: Foundation numbers tokens per name and filter.
        var filter: UInt64
        var token: UInt64
        /// A typed message token's name's high word: two message types whose names read alike
        /// once cut (local types) are told apart by their strings. 0 for a notification's.
        var nameWord: UInt64 = 0
    }

    /// A token without its center: what a removal from the wrong center shares with the token.
    struct TokenKey: Hashable {
        var name: String?
        var filter: UInt64
        var token: UInt64

        init(_ key: RegistrationKey) {
            name = key.name
            filter = key.filter
            token = key.token
        }
    }

    struct NameKey: Hashable {
        var center: UInt64
        var name: String?
    }

    struct ClosureKey: Hashable {
        var function: UInt64
        var context: UInt64
    }

    struct Registration {
        /// Nil for one found live: its name and filter were never seen.
        var key: RegistrationKey?
        /// The name its posts carry (a typed message's readable name), nil for every name.
        var name: String?
        /// Nil for one found live in a delivery whose post was not seen.
        var center: UInt64?
        var closure: ClosureKey
        var objectWord: UInt64?
        var boundContext: UInt64?
        var queue: PendingQueue?
        /// An `AsyncMessage` observer: its closure the probes see only enqueues the message.
        var enqueuesOnly = false
        /// An `AsyncMessage` observer's own closure, which its runs carry; its enqueue's closure
        /// (``closure``) is learnt at its first delivery.
        var asyncObserver: ClosureKey?
        /// An `AsyncMessage` sequence's iterator; its observer's closure (``closure``) is learnt at
        /// its first delivery, which names the iterator.
        var sequence: UInt64?
    }

    /// An `AsyncMessage` observer's enqueue, waiting for its run.
    struct PendingRun {
        var registration: UInt64
        var post: PostInProgress
        var enqueued: UInt64
    }

    /// An `AsyncMessage` observer's run under way.
    struct AsyncRun {
        var pending: PendingRun
        var thread: Int32
        var start: UInt64
    }

    /// An `OperationQueue` observer being added: the queue's address and the app's block.
    struct PendingQueue {
        var queue: UInt64
        var block: ClosureKey
        /// The queue is `OperationQueue.main`.
        var isMain = false
    }

    struct PendingAdd {
        var line: ProbeCall
        var object: ProbeObject?
        var closure: ClosureKey
        var name: String?
        var queue: PendingQueue?
        /// A typed message observer's add: which, and the message type's metadata.
        var typed: (kind: TypedAddKind, metadata: UInt64)?
    }

    /// Where a queue observer's block ran: the queue's thread, its start and end.
    struct Hop {
        var thread: Int32
        var start: UInt64
        var end: UInt64?
    }

    struct RunningDelivery {
        var start: UInt64
        /// Nil for a delivery tied to no live registration (counted, not written).
        var registration: UInt64?
        var post: PostInProgress?
        var hop: Hop?
        /// An `AsyncMessage` post's delivery whose closure no live registration carries: a
        /// sequence's, if a line names its iterator before it ends, else an observer's enqueue
        /// (one made before the probes attached).
        var unbound: (context: UInt64, closure: ClosureKey)?
    }

    struct PostInProgress {
        var id: UInt64
        var center: UInt64
        var name: String
        var thread: UInt64
        var depth: Int
        var message: TraceMessageKind?
    }

    let pid: Int32
    let lookups: Lookups
    var seq: UInt64 = 0
    var threads: [Int32: UInt64] = [:]
    var sites: [ProbeSite: UInt64] = [:]
    var types: [UInt64: UInt64] = [:]
    var objects: [UInt64: UInt64] = [:]
    /// ``Lookups/message`` by a post's first return address, asked once per address.
    var messageByCaller: [UInt64: TraceMessageKind?] = [:]
    var nextDefinition: UInt64 = 1
    var nextRegistration: UInt64 = 1
    /// Stream indices of the centers seen, by address; the first is the header's, index 0.
    var centerIndices: [UInt64: UInt32] = [:]
    var nextCenterIndex: UInt32 = 0
    var nextPost: UInt64 = 1
    var pendingAdds: [Int32: PendingAdd] = [:]
    var registrations: [UInt64: Registration] = [:]
    var byKey: [RegistrationKey: UInt64] = [:]
    /// Live registrations by center and name (nil: every name), for a post's `matched`.
    var byName: [NameKey: Set<UInt64>] = [:]
    /// Live registrations by their observer closure, oldest first.
    var byClosure: [ClosureKey: [UInt64]] = [:]
    var byContext: [UInt64: UInt64] = [:]
    var currentPost: [Int32: PostInProgress] = [:]
    var running: [Int32: [RunningDelivery]] = [:]
    var pendingQueues: [Int32: PendingQueue] = [:]
    /// `AsyncMessage` registrations by their observer's closure whose enqueue was not seen yet.
    var asyncUnbound: [ClosureKey: [UInt64]] = [:]
    /// Enqueued `AsyncMessage` runs by the observer's closure, oldest first; bounded (so are the
    /// runs under way and the names asked, by the same limit).
    var pendingRuns: [ClosureKey: [PendingRun]] = [:]
    var pendingRunCount = 0
    static let pendingRunLimit = 65_536
    /// `AsyncMessage` runs under way, by their async frame.
    var asyncRuns: [UInt64: AsyncRun] = [:]
    /// Live `AsyncMessage` sequence registrations by their iterator.
    var bySequence: [UInt64: UInt64] = [:]
    /// ``Lookups/messageName`` by metadata, asked once each.
    var messageNames: [UInt64: String?] = [:]
    /// Live queue registrations by their block, to tie an operation to its registration.
    var byBlock: [ClosureKey: [UInt64]] = [:]
    /// The queue operations running on each thread: the posting thread and registration of each.
    var operations: [Int32: [(postingThread: Int32, registration: UInt64)]] = [:]
    /// Live tokens by their name, filter and number on any center, with how many centers hold each.
    var liveTokens: [TokenKey: Int] = [:]
    /// Tokens the probes saw removed and not added again since: a second removal is a miss.
    /// Bounded: emptied when full, so a miss after that is only counted.
    var removedKeys: Set<RegistrationKey> = []
    static let removedKeysLimit = 65_536
    /// The object a missed removal names: Foundation's token, whose address the probes do not see.
    var tokenObject: UInt64?
    /// Lines that could not be tied to what they belong to (a delivery's end with no start, a
    /// removal of a registration made before the probes attached).
    package internal(set) var unmatched = 0
    /// Deliveries whose closure a live registration carries but none of its center and name fit
    /// the running post: not written (each is a gap `probe-delivery-unmatched`).
    package internal(set) var unmatchedDeliveries = 0
    /// Per thread, how deep the posts are that the event program printed past a switch's cutover
    /// inside a post it printed before (``continuesPostUnderWay(_:)``): not its to show.
    var continuing: [Int32: Int] = [:]
    /// Adds that reused a live registration's center, name, filter and number: that one had
    /// ended unseen (its center died and another took its address, or its removal was lost).
    package internal(set) var endedUnseen = 0
    /// The lines received against the kernel's counts of them.
    package internal(set) var tally = ProbeLineTally()

    package init(pid: Int32, lookups: Lookups) {
        self.pid = pid
        self.lookups = lookups
    }

    /// The events one line makes, appended to `events`.
    package mutating func add(_ line: ProbeLine, to events: inout [TraceEvent]) {
        if let kind = line.kind { tally.see(kind) }
        switch line {
        case .ready, .exec: break
        case .lost(let count): lose(count, reason: "probe-buffer-full", to: &events)
        case .counts(let time, let lines):
            lastTime = max(lastTime, time)
            let missing = tally.reconcile(lines)
            if missing > 0 { lose(missing, reason: Self.linesLost, to: &events) }
        case .finalCount(let kind, let count): tally.addFinal(kind: kind, count: count)
        case .centerEnd(let thread, let time, let center):
            lastTime = time
            endCenter(center, thread: thread, time: time, events: &events)
        case .add(let call, let object, let function, let context, let name):
            lastTime = call.time
            pendingAdds[call.thread] = PendingAdd(
                line: call, object: object, closure: ClosureKey(function: function, context: context), name: name.shown,
                queue: pendingQueues.removeValue(forKey: call.thread))
        case .typedAdd(let call, let kind, let object, let function, let context, let message):
            lastTime = call.time
            pendingAdds[call.thread] = PendingAdd(
                line: call, object: object, closure: ClosureKey(function: function, context: context), name: nil,
                typed: (kind, message))
        case .typedAdded(let thread, let time, let token, let filter, let nameWord, let name):
            lastTime = time
            guard let pending = pendingAdds.removeValue(forKey: thread), let typed = pending.typed else {
                unmatched += 1
                return
            }
            let readable = messageName(typed.metadata)
            registerTyped(
                pending, kind: typed.kind, name: readable ?? name.shown,
                key: RegistrationKey(
                    center: pending.line.center, name: name.shown, filter: filter, token: token, nameWord: nameWord),
                events: &events)
        case .asyncRunStart(let thread, let time, let frame, let function, let context):
            lastTime = time
            startAsyncRun(
                thread: thread, time: time, frame: frame, observer: ClosureKey(function: function, context: context))
        case .asyncRunEnd(let thread, let time, let frame):
            lastTime = time
            endAsyncRun(thread: thread, time: time, frame: frame, events: &events)
        case .sequenceDelivery(let thread, let time, let iterator):
            lastTime = time
            sequenceDelivered(thread: thread, time: time, iterator: iterator, events: &events)
        case .added(let thread, let time, let token, let filter):
            lastTime = time
            guard let pending = pendingAdds.removeValue(forKey: thread), pending.typed == nil else {
                unmatched += 1
                return
            }
            register(pending, token: token, filter: filter, events: &events)
        case .post(let call, let object, let message, let name):
            lastTime = call.time
            post(call, object: object, metadata: message, name: name.shown ?? "", events: &events)
        case .remove(let call, let token, let filter, let nameWord, let name):
            lastTime = call.time
            let key = RegistrationKey(center: call.center, name: name.shown, filter: filter, token: token)
            var typedKey = key
            typedKey.nameWord = nameWord ?? 0
            remove(call, key: nameWord != nil && byKey[typedKey] != nil ? typedKey : key, events: &events)
        case .deliveryStart(let thread, let time, let context, let function, let closureContext, let inner):
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
                closure: ClosureKey(function: function, context: closureContext),
                inner: inner.map { ClosureKey(function: $0.function, context: $0.context) }, events: &events)
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
        case .queueAdd(let thread, let time, let queue, let function, let context, let mainQueue):
            lastTime = time
            pendingQueues[thread] = PendingQueue(
                queue: queue, block: ClosureKey(function: function, context: context), isMain: mainQueue == queue)
        case .operationStart(let thread, let time, let function, let context):
            lastTime = time
            startOperation(thread: thread, time: time, block: ClosureKey(function: function, context: context))
        case .operationEnd(let thread, let time):
            lastTime = time
            endOperation(thread: thread, time: time)
        }
    }

    /// The time of the latest line, for lines the probes do not time (gaps, ticks).
    package private(set) var lastTime: UInt64 = 0

    /// The next event number, for lines the caller adds (ticks, the end).
    package mutating func nextSeq() -> UInt64 {
        seq += 1
        return seq
    }

    mutating func threadID(_ tid: Int32, time: UInt64, events: inout [TraceEvent]) -> UInt64 {
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

    mutating func siteID(_ site: ProbeSite, events: inout [TraceEvent]) -> UInt64 {
        if let id = sites[site] { return id }
        let id = newDefinition()
        sites[site] = id
        events.append(.callsite(TraceCallsite(id: id, file: site.file, line: site.line)))
        return id
    }

    mutating func objectID(_ object: ProbeObject, events: inout [TraceEvent]) -> UInt64 {
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

    mutating func newDefinition() -> UInt64 {
        defer { nextDefinition += 1 }
        return nextDefinition
    }
}
