import NotifyWire

/// A deterministic trace in which every registration observes a name never seen before, for the
/// fold's cost as names pile up: per cycle, one registration of a new name and a post of it that
/// its observer hears; the oldest registration goes once ``livePool`` are live, so its name turns
/// idle and is forgotten later. Every 16th cycle posts a new name nobody observes (R9's typo
/// check), every 64th the app marks a checkpoint (R6 and R10's passes).
struct DistinctNamesWorkload: Sendable {
    static let livePool: UInt64 = 20_000
    static let callsites: UInt64 = 64

    private var cycle: UInt64 = 0
    private var seq: UInt64 = 0
    private var clock: UInt64 = 1_000_000_000
    private var pending: [TraceEvent] = []

    init() {
        pending.append(
            .thread(TraceThread(seq: next(), timestamp: clock, id: 1, systemID: 100, name: "main", isMain: true)))
        for site in 0..<Self.callsites {
            pending.append(
                .callsite(TraceCallsite(id: 2 + site, file: "Bench/Names.swift", line: UInt(2 + site))))
        }
    }

    private mutating func next() -> UInt64 {
        seq += 1
        return seq
    }

    /// The next event.
    mutating func nextEvent() -> TraceEvent {
        if pending.isEmpty { queueCycle() }
        return pending.removeLast()
    }

    private mutating func queueCycle() {
        cycle += 1
        var events: [TraceEvent] = []
        let name = "bench.distinct.\(cycle)DidChange"
        clock += 1_000
        events.append(
            .registered(
                TraceRegistration(
                    seq: next(), timestamp: clock, thread: 1, id: cycle, name: name, kind: .block, observer: nil,
                    object: nil, target: .posting, targetLabel: nil, callsite: 2 + cycle % Self.callsites,
                    preexisting: false, capturesObserverStrongly: false)))
        clock += 1_000
        events.append(post(name, matched: 1))
        if cycle > Self.livePool {
            clock += 1_000
            events.append(
                .removed(
                    TraceRemoval(
                        seq: next(), timestamp: clock, thread: 1, registration: cycle - Self.livePool,
                        reason: .explicit)))
        }
        if cycle % 16 == 0 {
            clock += 1_000
            events.append(post("bench.unheard.\(cycle)Changed", matched: 0))
        }
        if cycle % 64 == 0 {
            clock += 1_000
            events.append(
                .checkpoint(TraceCheckpoint(seq: next(), timestamp: clock, thread: 1, label: "mark", callsite: 2)))
        }
        pending = events.reversed()
    }

    private mutating func post(_ name: String, matched: Int) -> TraceEvent {
        .posted(
            TracePost(
                seq: next(), timestamp: clock, thread: 1, postID: seq, name: name, object: nil, hasUserInfo: false,
                matched: matched, depth: 1, parentPostID: 0, callsite: 2))
    }
}
