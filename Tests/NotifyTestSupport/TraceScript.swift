package import NotifyWire

/// Builds trace lines the way a producer would: increasing `seq`, a clock that moves only when
/// told, definitions introduced once. Tests describe a scenario with it and fold the result.
package struct TraceScript: Sendable {
    package static let start: UInt64 = 1_000_000_000
    package static let ms: UInt64 = 1_000_000
    package static let second: UInt64 = 1_000_000_000

    package private(set) var events: [TraceEvent] = []
    package private(set) var time: UInt64 = start
    private var seq: UInt64 = 0
    private var lastPostID: UInt64 = 0
    private var threads: Set<UInt64> = []
    private var sites: Set<UInt64> = []
    private var objects: Set<UInt64> = []
    private var types: [String: UInt64] = [:]

    /// A script whose thread 1 is the main thread and thread 2 a worker.
    package init() {
        thread(1, name: "main", isMain: true)
        thread(2, name: "worker")
    }

    /// A stream's lines from its start: `header`, then the same two threads, the clock at `time`.
    package init(header: TraceHeader, time: UInt64) {
        events = [.header(header)]
        self.time = time
        thread(1, name: "main", isMain: true)
        thread(2, name: "worker")
    }

    /// A stream of several centers (format 1.5): a header listing `centers`, then the same two
    /// threads; `register` and `post` name their center by index.
    package init(centers: [String]) {
        self.init(
            header: TraceHeader(
                pid: 1, process: "app", center: centers.first ?? "default", clockMono: Self.start,
                clockWall: 1_700_000_000_000_000_000, producer: "NotifyKit 0.1.0", centers: centers),
            time: Self.start)
    }

    private mutating func nextSeq() -> UInt64 {
        seq += 1
        return seq
    }

    package mutating func advance(_ nanoseconds: UInt64) { time += nanoseconds }

    /// A clock line at the current time: stream time moves on with nothing happening.
    package mutating func tick(viewers: UInt64? = nil) {
        events.append(.tick(TraceTick(seq: nextSeq(), timestamp: time, viewers: viewers)))
    }

    package mutating func thread(_ id: UInt64, name: String? = nil, isMain: Bool = false) {
        threads.insert(id)
        events.append(
            .thread(
                TraceThread(
                    seq: nextSeq(), timestamp: time, id: id, systemID: Int32(1_000 + id), name: name ?? "thread-\(id)",
                    isMain: isMain)))
    }

    /// Introduces callsite `id` as `<file>:<line>` once (line `id` unless said).
    package mutating func site(_ id: UInt64, file: String = "App/File.swift", line: UInt? = nil) {
        guard sites.insert(id).inserted else { return }
        events.append(.callsite(TraceCallsite(id: id, file: file, line: line ?? UInt(id))))
    }

    /// Introduces object `id` of type `type` once.
    /// Introduces object `id` of type `type` once, at `address` (default: one no other object has).
    package mutating func object(_ id: UInt64, type: String = "App.Screen", address: UInt64? = nil) {
        guard objects.insert(id).inserted else { return }
        let typeID: UInt64
        if let known = types[type] {
            typeID = known
        } else {
            typeID = 10_000 + UInt64(types.count)
            types[type] = typeID
            events.append(.type(TraceType(id: typeID, name: type)))
        }
        events.append(.object(TraceObject(id: id, type: typeID, address: address ?? 0x1000 + id * 16)))
    }

    package mutating func register(
        _ id: UInt64, _ name: String?, kind: TraceRegistrationKind = .block, observer: UInt64? = nil,
        object: UInt64? = nil, target: TraceTargetKind = .posting, site: UInt64 = 100, thread: UInt64 = 1,
        captures: Bool = false, mainOnly: Bool = false, preexisting: Bool = false, ownerType: String = "App.Screen",
        center: UInt32? = nil
    ) {
        self.site(site)
        if let observer { self.object(observer, type: ownerType) }
        if let object { self.object(object, type: "App.Sender") }
        events.append(
            .registered(
                TraceRegistration(
                    seq: nextSeq(), timestamp: time, thread: thread, id: id, name: name, kind: kind, observer: observer,
                    object: object, target: target, targetLabel: nil, callsite: site, preexisting: preexisting,
                    capturesObserverStrongly: captures, mainThreadOnly: mainOnly, center: center)))
    }

    /// Posts `name`; returns the post id.
    @discardableResult
    package mutating func post(
        _ name: String, matched: Int, thread: UInt64 = 1, site: UInt64 = 200, depth: Int = 1,
        message: TraceMessageKind? = nil, object: UInt64? = nil, parent: UInt64 = 0, center: UInt32? = nil
    ) -> UInt64 {
        self.site(site)
        if let object { self.object(object, type: "App.Sender") }
        lastPostID += 1
        events.append(
            .posted(
                TracePost(
                    seq: nextSeq(), timestamp: time, thread: thread, postID: lastPostID, name: name, object: object,
                    hasUserInfo: false, matched: matched, depth: depth, parentPostID: parent, callsite: site,
                    message: message, center: center)))
        return lastPostID
    }

    /// A typed message of `post` queued for `registration`, leaving `pending` waiting for it.
    package mutating func enqueue(
        _ post: UInt64, for registration: UInt64, pending: Int, droppedOldest: Bool = false, thread: UInt64 = 1
    ) {
        events.append(
            .enqueued(
                TraceMessageEnqueue(
                    seq: nextSeq(), timestamp: time, thread: thread, postID: post, registration: registration,
                    pending: pending, droppedOldest: droppedOldest)))
    }

    /// One handler run of `registration` for `post`, lasting `duration`; the clock moves past it.
    /// `startedAt` places a run that began earlier (posts made inside it come before its line).
    package mutating func deliver(
        _ post: UInt64, to registration: UInt64, name: String, thread: UInt64 = 1, postingThread: UInt64 = 1,
        duration: UInt64 = 1_000, wait: UInt64 = 0, depth: Int = 1, target: TraceTargetKind = .posting,
        startedAt: UInt64? = nil
    ) {
        let start = startedAt ?? time + wait
        time = max(time, start + duration)
        events.append(
            .delivered(
                TraceDelivery(
                    seq: nextSeq(), timestamp: start + duration, thread: thread, postID: post,
                    registration: registration,
                    name: name,
                    postingThread: postingThread, target: target, start: start, duration: duration, wait: wait,
                    depth: depth)))
    }

    /// Posts `name` and delivers it to each of `registrations` (inline, on the posting thread).
    @discardableResult
    package mutating func postAndDeliver(
        _ name: String, to registrations: [UInt64], thread: UInt64 = 1, site: UInt64 = 200, duration: UInt64 = 1_000
    ) -> UInt64 {
        let id = post(name, matched: registrations.count, thread: thread, site: site)
        for registration in registrations {
            deliver(id, to: registration, name: name, thread: thread, postingThread: thread, duration: duration)
        }
        return id
    }

    /// Registration `id` ended; `site` is the ending call's (format 1.5), introduced once.
    package mutating func remove(
        _ id: UInt64, reason: TraceRemovalReason = .tokenCancelled, thread: UInt64 = 1, site: UInt64? = nil
    ) {
        if let site { self.site(site) }
        events.append(
            .removed(
                TraceRemoval(
                    seq: nextSeq(), timestamp: time, thread: thread, registration: id,
                    reason: reason, callsite: site)))
    }

    /// The center found registration `id`'s object filter (`object`) dead, alive at `aliveAt` (1.5).
    package mutating func objectDead(_ id: UInt64, object: UInt64?, aliveAt: UInt64) {
        events.append(
            .objectDead(
                TraceObjectDeath(
                    seq: nextSeq(), timestamp: time, thread: 1, registration: id, object: object, aliveAt: aliveAt)))
    }

    /// A queue merged `count` enqueues made at `site` into post `postID` (1.5).
    package mutating func merge(into postID: UInt64, count: UInt64, site: UInt64, enqueuedAt: UInt64, queue: UInt64 = 1)
    {
        self.site(site)
        events.append(
            .merged(
                TraceQueueMerge(
                    seq: nextSeq(), timestamp: time, thread: 1, queueID: queue, postID: postID, callsite: site,
                    count: count, enqueuedAt: enqueuedAt)))
    }

    /// A notification queue merged `count` enqueues of `name` into a pending one.
    package mutating func coalesce(_ name: String, count: Int, queue: UInt64 = 1) {
        events.append(
            .queue(
                TraceQueueActivity(
                    seq: nextSeq(), timestamp: time, thread: 1, queueID: queue, action: .coalesced, name: name,
                    style: nil, count: count, pending: 1)))
    }

    package mutating func dropToken(_ id: UInt64) {
        events.append(.tokenDropped(TraceTokenDrop(seq: nextSeq(), timestamp: time, thread: 1, registration: id)))
    }

    package mutating func missRemoval(observer: UInt64, name: String?, site: UInt64 = 300) {
        self.site(site)
        object(observer)
        events.append(
            .removeMissed(
                TraceMissedRemoval(
                    seq: nextSeq(), timestamp: time, thread: 1, observer: observer, name: name, callsite: site)))
    }

    /// The app's `center.checkpoint(label)`.
    /// A `center` line: a center introduced after the header.
    package mutating func introduceCenter(_ index: UInt32, label: String) {
        events.append(.center(TraceCenter(index: index, label: label)))
    }

    package mutating func checkpoint(_ label: String, site: UInt64 = 400) {
        self.site(site)
        events.append(
            .checkpoint(TraceCheckpoint(seq: nextSeq(), timestamp: time, thread: 1, label: label, callsite: site)))
    }

    package mutating func gap(_ count: UInt64) {
        events.append(.gap(TraceGap(seq: nextSeq(), timestamp: time, count: count, reason: .bufferFull)))
    }

    package mutating func end(_ reason: TraceEndReason = .processExit) {
        events.append(.end(TraceEnd(seq: nextSeq(), timestamp: time, reason: reason)))
    }
}
