import NotifyWire

/// An endless, deterministic trace shaped like a busy app in a steady state, for the benchmark.
///
/// Eight threads, sixteen names, a callsite per live registration and one event every 10 µs of
/// stream time; per ten events two posts, six deliveries (one in six handed
/// off to another thread), one registration and one removal, so the live table stays at the same
/// size while ids, post ids and objects keep growing. Every hundredth event introduces a new
/// sender object, every thousandth post is unheard, and every registration's token is dropped
/// once in a while, so the caps and the rules are exercised, not just the counters.
struct SteadyWorkload: Sendable {
    static let threadCount: UInt64 = 8
    static let names = (0..<16).map { "benchmark.name\($0)DidChangeNotification" }
    /// Registrations kept live; each new one replaces the oldest.
    static let livePool: UInt64 = 256

    private var index: UInt64 = 0
    private var seq: UInt64 = 0
    private var clock: UInt64 = 1_000_000_000
    private var postID: UInt64 = 0
    private var nextRegistration: UInt64 = 1
    private var oldestRegistration: UInt64 = 1
    private var nextObject: UInt64 = 1_000
    private var pending: [TraceEvent] = []

    init() {
        for thread in 1...Self.threadCount {
            pending.append(
                .thread(
                    TraceThread(
                        seq: next(), timestamp: clock, id: thread, systemID: Int32(100 + thread),
                        name: "worker-\(thread)",
                        isMain: thread == 1)))
        }
        pending.append(.type(TraceType(id: 1, name: "Bench.Screen")))
        for site in 2...(2 + Self.livePool) {
            pending.append(.callsite(TraceCallsite(id: site, file: "Bench/Site.swift", line: UInt(site))))
        }
        for _ in 0..<Self.livePool { pending.append(registration()) }
        pending.reverse()
    }

    private mutating func next() -> UInt64 {
        seq += 1
        return seq
    }

    private mutating func registration() -> TraceEvent {
        let id = nextRegistration
        nextRegistration += 1
        let owned = id % 4 == 0
        return .registered(
            TraceRegistration(
                seq: next(), timestamp: clock, thread: 1 + id % Self.threadCount, id: id,
                name: Self.names[Int(id % UInt64(Self.names.count))], kind: owned ? .ownerBound : .block,
                observer: owned ? 1_000_000 + id : nil, object: nil, target: id % 6 == 0 ? .dispatchQueue : .posting,
                targetLabel: nil, callsite: 2 + id % Self.livePool, preexisting: false, capturesObserverStrongly: false,
                mainThreadOnly: false))
    }

    /// The next event.
    mutating func nextEvent() -> TraceEvent {
        if let event = pending.popLast() { return event }
        index += 1
        clock += 10_000
        if index % 100 == 0 {
            nextObject += 1
            return .object(TraceObject(id: nextObject, type: 1, address: 0x10_0000 + nextObject * 64))
        }
        switch index % 10 {
        case 0, 5:
            postID += 1
            let unheard = postID % 1_000 == 0
            let thread = 1 + (index / 10) % Self.threadCount
            return .posted(
                TracePost(
                    seq: next(), timestamp: clock, thread: thread, postID: postID,
                    name: unheard ? "benchmark.unheard" : Self.names[Int(postID % UInt64(Self.names.count))],
                    object: nil, hasUserInfo: false, matched: unheard ? 0 : 3, depth: 1, parentPostID: 0,
                    callsite: 2 + postID % 8))
        case 3:
            return registration()
        case 4:
            let id = oldestRegistration
            oldestRegistration += 1
            if id % 97 == 0 {
                let dropSeq = next()
                pending.append(
                    .removed(
                        TraceRemoval(
                            seq: next(), timestamp: clock + 1, thread: 1, registration: id, reason: .explicit)))
                return .tokenDropped(TraceTokenDrop(seq: dropSeq, timestamp: clock, thread: 1, registration: id))
            }
            return .removed(TraceRemoval(seq: next(), timestamp: clock, thread: 1, registration: id, reason: .explicit))
        default:
            let nameCount = UInt64(Self.names.count)
            // The oldest live registration of the post's name, then one of the next few of that name.
            let offset = (postID % nameCount + nameCount - oldestRegistration % nameCount) % nameCount
            let aligned = oldestRegistration + offset
            let registration = aligned + nameCount * (index % (Self.livePool / nameCount - 1))
            let handedOff = index % 6 == 1
            let postingThread = 1 + (index / 10) % Self.threadCount
            return .delivered(
                TraceDelivery(
                    seq: next(), timestamp: clock,
                    thread: handedOff ? 1 + (postingThread % Self.threadCount) : postingThread,
                    postID: postID, registration: registration,
                    name: Self.names[Int(postID % UInt64(Self.names.count))],
                    postingThread: postingThread, target: handedOff ? .dispatchQueue : .posting, start: clock - 400,
                    duration: 400 + index % 700, wait: handedOff ? 12_000 : 0, depth: 1))
        }
    }
}
