package import NotifyWire
package import NotifyKit

/// Turns a center's events into trace lines: assigns sequence numbers, introduces threads, types,
/// objects and callsites once, and keeps what a viewer attaching later needs (the live
/// registrations and every definition they refer to).
///
/// A stream of several centers tells each event's center (its index among them): registration ids
/// and object serials, numbered per center, are made unique across them as `(id − 1) · n + c + 1`
/// for center `c` of the `n` named at the start (one center's are written as they are), and as
/// `c · 2⁴⁰ + id` for a center introduced later (whose index `c` is never reused in the stream).
///
/// Only the exporter thread uses it (a leak check, its own).
package struct ProbeEventConverter {
    private(set) var lastSequence: UInt64 = 0
    private var threads: [UInt64: TraceThread] = [:]
    /// Threads already introduced, by `id % knownThreadSlots`: most events skip the table above.
    private var knownThreads = [UInt64](repeating: .max, count: knownThreadSlots)
    private static let knownThreadSlots = 64
    /// Callsites' ids by their file's address and line; most posts skip the table below.
    private var recentCallsites = [RecentCallsite](repeating: RecentCallsite(), count: recentCallsiteSlots)
    private static let recentCallsiteSlots = 256
    /// Objects' ids by address, type and serial; forgotten whenever the object table starts afresh.
    private var recentObjects = [RecentObject](repeating: RecentObject(), count: recentObjectSlots)
    private static let recentObjectSlots = 256
    private var types: [ObjectIdentifier: TraceType] = [:]
    private var objects: [ObjectKey: TraceObject] = [:]
    private var callsites: [ProbeEvent.Callsite: TraceCallsite] = [:]
    private var nextDefinitionID: UInt64 = 0
    /// Live registrations by id, for the snapshot of a late viewer.
    private(set) var live: [UInt64: TraceRegistration] = [:]
    /// Bounds the object table: posted objects come and go; past this many, it starts afresh.
    let maximumObjects: Int
    /// How many centers the stream named at the start.
    let centerCount: UInt64
    /// The index in the stream of the center whose records carry each ring tag.
    private var centerIndices: [UInt32] = (0..<256).map(UInt32.init)
    /// True once the stream carries several centers: lines name theirs.
    private(set) var carriesSeveralCenters: Bool

    private struct ObjectKey: Hashable {
        let address: UInt
        let type: ObjectIdentifier
        /// The center's never-reused serial (0 when it has none), so a recycled address is a new object.
        let serial: UInt64
    }

    /// Live registrations whose token was released, with the release, for the snapshot of a late viewer.
    private var droppedTokens: [UInt64: TraceTokenDrop] = [:]
    /// Live registrations whose object filter was found dead, for the snapshot of a late viewer.
    private var filterDeaths: [UInt64: TraceObjectDeath] = [:]
    /// ``NotifyThread/renameCount`` when thread names were last compared.
    private(set) var seenRenames: UInt64 = 0

    /// - Parameter lastSequence: The last sequence number already used: a stream's numbers never repeat.
    /// - Parameter centerCount: How many centers the stream carries (at most 256).
    package init(maximumObjects: Int = 1 << 16, lastSequence: UInt64 = 0, centerCount: Int = 1) {
        self.maximumObjects = maximumObjects
        self.lastSequence = lastSequence
        self.centerCount = UInt64(min(256, max(1, centerCount)))
        carriesSeveralCenters = centerCount > 1
    }

    /// From here on, records tagged `tag` are the center with index `index` in the stream.
    mutating func assign(tag: UInt8, index: UInt32) {
        centerIndices[Int(tag)] = index
        carriesSeveralCenters = true
    }

    /// Center `center`'s registration id `id` as the stream writes it; 0 stays 0.
    @inline(__always)
    func streamID(_ id: UInt64, center: UInt8) -> UInt64 {
        guard carriesSeveralCenters, id != 0 else { return id }
        let index = UInt64(centerIndices[Int(center)])
        guard index >= centerCount else { return (id &- 1) &* centerCount &+ index &+ 1 }
        return index << 40 | id & (1 << 40 - 1)
    }

    /// `object` with its serial made unique across centers like registration ids.
    @inline(__always)
    func streamObject(_ object: ProbeEvent.ObjectRef, center: UInt8) -> ProbeEvent.ObjectRef {
        guard carriesSeveralCenters, object.serial != 0 else { return object }
        return object.withSerial(streamID(object.serial, center: center))
    }

    /// The `center` field of a register or post line: the index, in a stream of several centers.
    @inline(__always)
    func centerField(_ center: UInt8) -> UInt32? {
        carriesSeveralCenters ? centerIndices[Int(center)] : nil
    }

    mutating func nextSequence() -> UInt64 {
        lastSequence += 1
        return lastSequence
    }

    /// Appends the lines for `event` (definitions first, then the event) to `lines`; `center` is the
    /// index of the center it came from.
    package mutating func translate(_ event: ProbeEvent, center c: UInt8 = 0, into lines: inout [TraceEvent]) {
        if NotifyThread.renameCount != seenRenames {
            reintroduceRenamedThreads(at: event.timestamp, into: &lines)
        }
        let thread = introduceThread(event.thread, at: event.timestamp, into: &lines)
        let t = event.timestamp
        switch event.kind {
        case .registered(let registration):
            let id = streamID(registration.id, center: c)
            let observer = registration.observer.map { introduce(streamObject($0, center: c), into: &lines) }
            let object = registration.object.map { introduce(streamObject($0, center: c), into: &lines) }
            let site = introduce(registration.callsite, into: &lines)
            let value = TraceRegistration(
                seq: nextSequence(), timestamp: t, thread: thread, id: id, name: registration.name,
                kind: TraceRegistrationKind(rawValue: registration.kind.rawValue) ?? .block,
                observer: observer, object: object,
                target: TraceTargetKind(rawValue: registration.target.rawValue) ?? .posting,
                targetLabel: registration.targetLabel, callsite: site, preexisting: registration.preexisting,
                capturesObserverStrongly: registration.capturesObserverStrongly,
                mainThreadOnly: registration.mainThreadOnly, registeredAt: registration.registeredAt,
                deliveries: registration.preexisting ? registration.deliveries : nil, center: centerField(c))
            live[id] = value
            lines.append(.registered(value))
            if registration.tokenDropped {
                let drop = TraceTokenDrop(seq: nextSequence(), timestamp: t, thread: thread, registration: id)
                droppedTokens[id] = drop
                lines.append(.tokenDropped(drop))
            }
        case .posted(let post):
            let object = post.object.map { introduce(streamObject($0, center: c), into: &lines) }
            let site = introduce(post.callsite, into: &lines)
            lines.append(
                .posted(
                    TracePost(
                        seq: nextSequence(), timestamp: t, thread: thread, postID: post.postID, name: post.name,
                        object: object, hasUserInfo: post.hasUserInfo, matched: post.matched, depth: post.depth,
                        parentPostID: post.parentPostID, callsite: site,
                        message: post.message.flatMap { TraceMessageKind(rawValue: $0.rawValue) },
                        center: centerField(c))))
        case .delivered(let delivery):
            let posting = introduceThread(delivery.postingThread, at: t, into: &lines)
            lines.append(
                .delivered(
                    TraceDelivery(
                        seq: nextSequence(), timestamp: t, thread: thread, postID: delivery.postID,
                        registration: streamID(delivery.registration, center: c), name: delivery.name,
                        postingThread: posting,
                        target: TraceTargetKind(rawValue: delivery.target.rawValue) ?? .posting, start: delivery.start,
                        duration: delivery.duration, wait: delivery.wait, depth: delivery.depth)))
        case .removed(var registration, let reason, let callsite):
            registration = streamID(registration, center: c)
            live[registration] = nil
            droppedTokens[registration] = nil
            filterDeaths[registration] = nil
            let site = callsite.map { introduce($0, into: &lines) }
            lines.append(
                .removed(
                    TraceRemoval(
                        seq: nextSequence(), timestamp: t, thread: thread, registration: registration,
                        reason: TraceRemovalReason(rawValue: reason.rawValue) ?? .explicit, callsite: site)))
        case .objectDead(var registration, let aliveAt):
            registration = streamID(registration, center: c)
            let death = TraceObjectDeath(
                seq: nextSequence(), timestamp: t, thread: thread, registration: registration,
                object: live[registration]?.object, aliveAt: min(aliveAt, t))
            if live[registration] != nil { filterDeaths[registration] = death }
            lines.append(.objectDead(death))
        case .queueMerged(let merge):
            let site = introduce(merge.callsite, into: &lines)
            lines.append(
                .merged(
                    TraceQueueMerge(
                        seq: nextSequence(), timestamp: t, thread: thread, queueID: merge.queueID, postID: merge.postID,
                        callsite: site, count: UInt64(max(0, merge.count)), enqueuedAt: merge.enqueuedAt)))
        case .tokenDropped(var registration):
            registration = streamID(registration, center: c)
            let drop = TraceTokenDrop(seq: nextSequence(), timestamp: t, thread: thread, registration: registration)
            if live[registration] != nil { droppedTokens[registration] = drop }
            lines.append(.tokenDropped(drop))
        case .removeMissed(let missed):
            let observer = introduce(streamObject(missed.observer, center: c), into: &lines)
            let site = introduce(missed.callsite, into: &lines)
            lines.append(
                .removeMissed(
                    TraceMissedRemoval(
                        seq: nextSequence(), timestamp: t, thread: thread, observer: observer, name: missed.name,
                        callsite: site)))
        case .checkpoint(let label, let callsite):
            let site = introduce(callsite, into: &lines)
            lines.append(
                .checkpoint(
                    TraceCheckpoint(
                        seq: nextSequence(), timestamp: t, thread: thread, label: label, callsite: site)))
        case .queue(let activity):
            lines.append(
                .queue(
                    TraceQueueActivity(
                        seq: nextSequence(), timestamp: t, thread: thread, queueID: activity.queueID,
                        action: TraceQueueAction(rawValue: activity.action.rawValue) ?? .enqueued, name: activity.name,
                        style: activity.style, count: activity.count, pending: activity.pending)))
        case .messageEnqueued(let enqueue):
            lines.append(
                .enqueued(
                    TraceMessageEnqueue(
                        seq: nextSequence(), timestamp: t, thread: thread, postID: enqueue.postID,
                        registration: streamID(enqueue.registration, center: c), pending: enqueue.pending,
                        droppedOldest: enqueue.droppedOldest)))
        }
    }

    /// Introduces every thread of the process that is still alive, so a viewer sees threads that
    /// have not yet touched this center.
    mutating func introduceLiveThreads(at timestamp: UInt64, into lines: inout [TraceEvent]) {
        for thread in NotifyThread.all {
            _ = introduceThread(thread.id, at: timestamp, into: &lines)
        }
    }

    /// Everything a viewer attaching now must see before live lines: every known thread and
    /// definition, the history (introduced before, see ``introduce(_:at:into:)``), then each live
    /// registration marked `preexisting`, with the deliveries before now (those the center counted
    /// unwatched plus those in `totals`), followed by what happened to it since, in the order it
    /// happened: its object filter's death and its token's release.
    ///
    /// Snapshot lines describe state the stream already numbered, so they take no new numbers:
    /// they are numbered up to the last one used, and the viewers already attached see no hole.
    /// Only when fewer numbers were ever used than the snapshot has lines are new ones drawn.
    mutating func snapshot(history: ViewerHistory? = nil, totals: WatchedTotals? = nil, at now: UInt64 = 0)
        -> [TraceEvent]
    {
        let threadLines = threads.values.sorted(by: { $0.id < $1.id })
        let registrations = live.values.sorted(by: { $0.id < $1.id })
        let numbered =
            UInt64(threadLines.count + registrations.count)
            + UInt64(registrations.count { droppedTokens[$0.id] != nil })
            + UInt64(registrations.count { filterDeaths[$0.id] != nil })
            + UInt64(history?.checkpoints.count ?? 0)
        var next: UInt64
        if numbered <= lastSequence {
            next = lastSequence - numbered + 1
        } else {
            next = lastSequence + 1
            lastSequence += numbered
        }
        func number() -> UInt64 {
            defer { next += 1 }
            return next
        }
        var lines: [TraceEvent] = []
        for var thread in threadLines {
            thread.seq = number()
            lines.append(.thread(thread))
        }
        lines.append(contentsOf: types.values.sorted { $0.id < $1.id }.map { .type($0) })
        lines.append(contentsOf: objects.values.sorted { $0.id < $1.id }.map { .object($0) })
        lines.append(contentsOf: callsites.values.sorted { $0.id < $1.id }.map { .callsite($0) })
        if let history { lines += historyLines(history, at: now, number: number) }
        for var registration in registrations {
            registration.preexisting = true
            registration.seq = number()
            if let totals {
                registration.deliveries = (registration.deliveries ?? 0) + totals.deliveries(of: registration.id)
            }
            lines.append(.registered(registration))
            // In the order the stream told them.
            let death = filterDeaths[registration.id]
            let drop = droppedTokens[registration.id]
            if var drop, death.map({ drop.seq < $0.seq }) ?? true {
                drop.seq = number()
                lines.append(.tokenDropped(drop))
            }
            if var death {
                death.seq = number()
                lines.append(.objectDead(death))
            }
            if var drop, let death, drop.seq > death.seq {
                drop.seq = number()
                lines.append(.tokenDropped(drop))
            }
        }
        return lines
    }

    /// A thread's name can change (a worker delivering for another queue): a renamed thread is
    /// introduced again, with its id and its new name, before the event that follows.
    mutating func reintroduceRenamedThreads(at timestamp: UInt64, into lines: inout [TraceEvent]) {
        let renames = NotifyThread.renames(since: seenRenames)
        seenRenames = renames.count
        let candidates = renames.threads.map { Set($0).sorted().compactMap(NotifyThread.lookup) } ?? NotifyThread.all
        for current in candidates {
            guard var known = threads[current.id], known.name != current.name else { continue }
            known.name = current.name
            known.seq = nextSequence()
            known.timestamp = timestamp
            threads[current.id] = known
            lines.append(.thread(known))
        }
    }

    /// Introduces thread `id` if it is new; `known` names it when the process no longer knows it
    /// (a thread that has exited).
    mutating func introduceThread(
        _ id: UInt64, at timestamp: UInt64, known exited: NotifyThread? = nil, into lines: inout [TraceEvent]
    ) -> UInt64 {
        let slot = Int(id % UInt64(Self.knownThreadSlots))
        if knownThreads[slot] == id { return id }
        guard threads[id] == nil else {
            knownThreads[slot] = id
            return id
        }
        let known = NotifyThread.lookup(id) ?? exited
        let thread = TraceThread(
            seq: nextSequence(), timestamp: timestamp, id: id, systemID: known?.systemID ?? 0,
            name: known?.name ?? "thread-\(id)", isMain: known?.isMain ?? false)
        threads[id] = thread
        lines.append(.thread(thread))
        return id
    }

    mutating func introduce(_ object: ProbeEvent.ObjectRef, into lines: inout [TraceEvent]) -> UInt64 {
        let key = ObjectKey(address: object.address, type: ObjectIdentifier(object.type), serial: object.serial)
        if let known = objects[key] { return known.id }
        if objects.count >= maximumObjects {
            // Keep what live registrations refer to; a late viewer's snapshot needs those.
            let referenced = Set(live.values.flatMap { [$0.observer, $0.object].compactMap { $0 } })
            objects = objects.filter { referenced.contains($0.value.id) }
            // A table that filled once fills again: room for it all at once, not grown by doubling.
            objects.reserveCapacity(maximumObjects)
            recentObjects = [RecentObject](repeating: RecentObject(), count: Self.recentObjectSlots)
        }
        let typeID: UInt64
        if let known = types[key.type] {
            typeID = known.id
        } else {
            nextDefinitionID += 1
            let type = TraceType(id: nextDefinitionID, name: object.typeName)
            types[key.type] = type
            lines.append(.type(type))
            typeID = type.id
        }
        nextDefinitionID += 1
        let value = TraceObject(id: nextDefinitionID, type: typeID, address: UInt64(object.address))
        objects[key] = value
        lines.append(.object(value))
        return value.id
    }

    mutating func introduce(_ callsite: ProbeEvent.Callsite, into lines: inout [TraceEvent]) -> UInt64 {
        if let known = callsites[callsite] { return known.id }
        nextDefinitionID += 1
        let value = TraceCallsite(id: nextDefinitionID, file: callsite.file, line: callsite.line)
        callsites[callsite] = value
        lines.append(.callsite(value))
        return value.id
    }

    /// The id of the callsite at `line` of `file`, introducing it first if needed.
    @inline(__always)
    mutating func introduceCallsite(file: StaticString, line: UInt, into lines: inout [TraceEvent]) -> UInt64 {
        guard file.hasPointerRepresentation else {
            return introduce(ProbeEvent.Callsite(file: file, line: line), into: &lines)
        }
        let address = UInt(bitPattern: file.utf8Start)
        let slot = Int((address >> 3 ^ line &* 0x9E37) % UInt(Self.recentCallsiteSlots))
        let recent = recentCallsites[slot]
        if recent.file == address && recent.line == line { return recent.id }
        let id = introduce(ProbeEvent.Callsite(file: file, line: line), into: &lines)
        recentCallsites[slot] = RecentCallsite(file: address, line: line, id: id)
        return id
    }

    /// The id of `object`, introducing it (and its type) first if needed.
    @inline(__always)
    mutating func introduceObject(_ object: ProbeEvent.ObjectRef, into lines: inout [TraceEvent]) -> UInt64 {
        let type = ObjectIdentifier(object.type)
        let slot = Int((object.address >> 4 ^ UInt(truncatingIfNeeded: object.serial)) % UInt(Self.recentObjectSlots))
        let recent = recentObjects[slot]
        if recent.address == object.address && recent.type == type && recent.serial == object.serial {
            return recent.id
        }
        let id = introduce(object, into: &lines)
        recentObjects[slot] = RecentObject(address: object.address, type: type, serial: object.serial, id: id)
        return id
    }

    struct RecentObject {
        var address: UInt = 0
        var type: ObjectIdentifier? = nil
        var serial: UInt64 = 0
        var id: UInt64 = 0
    }

    struct RecentCallsite {
        var file: UInt = 0
        var line: UInt = 0
        var id: UInt64 = 0
    }
}
