import NotifyWire

/// What a producer keeping history (format 1.4) sends a viewer attaching at event `cut` of a
/// trace: the snapshot summing up the events before it, then the events from it on.
///
/// The snapshot holds the header with `since`, the threads and definitions seen, the app's
/// checkpoints (preexisting), each live (name, callsite) pair's last 16 live counts
/// (`site-count`), the live registrations at their true threads and times with the deliveries
/// they ran, their dropped tokens, and one `history` line per (thread, name).
enum LateAttachSnapshot {
    struct PairKey: Hashable {
        var name: String?
        var callsite: UInt64
    }

    struct ThreadName: Hashable {
        var thread: UInt64
        var name: String
    }

    /// The trace as a viewer from the start reads it: a header, then `events`.
    static func whole(_ events: [TraceEvent], since: UInt64) -> [TraceEvent] {
        [.header(header(since: since))] + events
    }

    /// The trace as a viewer attached at `cut` reads it; `unusedThread` is introduced in the
    /// snapshot and never used, as the thread that accepted the viewer would be. The history
    /// lines come before the registrations (as NotifyTraceApp sends them) or after.
    static func late(
        _ events: [TraceEvent], cut: Int, since: UInt64, unusedThread: UInt64? = nil, historyFirst: Bool = true
    ) -> [TraceEvent] {
        let before = events[..<cut]
        let after = events[cut...]
        let snapshotTime = after.lazy.compactMap(\.timestamp).first ?? before.compactMap(\.timestamp).last ?? since
        var threads: [UInt64: TraceThread] = [:]
        var definitions: [TraceEvent] = []
        var checkpoints: [TraceEvent] = []
        var live: [UInt64: TraceRegistration] = [:]
        var liveOrder: [UInt64] = []
        var dropped: Set<UInt64> = []
        var changes: [PairKey: [TraceSiteCount]] = [:]
        var counts: [PairKey: UInt64] = [:]
        var delivered: [UInt64: UInt64] = [:]
        var history: [ThreadName: TraceHistory] = [:]
        var historyOrder: [ThreadName] = []

        func changed(_ key: PairKey, by change: Int, at time: UInt64) {
            let count = UInt64(Int(counts[key] ?? 0) + change)
            counts[key] = count
            changes[key, default: []].append(
                TraceSiteCount(timestamp: time, name: key.name, callsite: key.callsite, live: count))
        }
        func add(_ thread: UInt64, _ name: String, posts: UInt64 = 0, deliveries: UInt64 = 0, unheard: UInt64 = 0) {
            let key = ThreadName(thread: thread, name: name)
            if history[key] == nil {
                history[key] = TraceHistory(timestamp: snapshotTime, thread: thread, name: name)
                historyOrder.append(key)
            }
            history[key]!.posts += posts
            history[key]!.deliveries += deliveries
            history[key]!.unheard += unheard
        }

        for event in before {
            switch event {
            case .thread(let thread): threads[thread.id] = thread
            case .type, .object, .callsite: definitions.append(event)
            case .checkpoint(var checkpoint):
                checkpoint.preexisting = true
                checkpoints.append(.checkpoint(checkpoint))
            case .registered(let registration):
                live[registration.id] = registration
                liveOrder.append(registration.id)
                changed(
                    PairKey(name: registration.name, callsite: registration.callsite), by: 1, at: registration.timestamp
                )
            case .removed(let removal):
                guard let registration = live.removeValue(forKey: removal.registration) else { continue }
                dropped.remove(removal.registration)
                changed(
                    PairKey(name: registration.name, callsite: registration.callsite), by: -1, at: removal.timestamp)
            case .tokenDropped(let drop): dropped.insert(drop.registration)
            case .posted(let post): add(post.thread, post.name, posts: 1, unheard: post.matched == 0 ? 1 : 0)
            case .delivered(let delivery):
                add(delivery.thread, delivery.name, deliveries: 1)
                delivered[delivery.registration, default: 0] += 1
            default: continue
            }
        }

        var snapshot: [TraceEvent] = [.header(header(since: since))]
        for id in threads.keys.sorted() {
            var thread = threads[id]!
            thread.timestamp = snapshotTime
            snapshot.append(.thread(thread))
        }
        if let unusedThread {
            snapshot.append(
                .thread(
                    TraceThread(
                        seq: 0, timestamp: snapshotTime, id: unusedThread, systemID: 7_777, name: "exporter",
                        isMain: false)))
        }
        snapshot += definitions
        let historyLines = historyOrder.map { TraceEvent.history(history[$0]!) }
        if historyFirst { snapshot += historyLines }
        snapshot += checkpoints
        let livePairs = Set(live.values.map { PairKey(name: $0.name, callsite: $0.callsite) })
        for (key, list) in changes where livePairs.contains(key) {
            snapshot += list.suffix(16).map(TraceEvent.siteCount)
        }
        for id in liveOrder {
            guard var registration = live[id] else { continue }
            registration.registeredAt = registration.timestamp
            registration.timestamp = snapshotTime
            registration.preexisting = true
            registration.deliveries = delivered[id] ?? 0
            snapshot.append(.registered(registration))
            if dropped.contains(id) {
                snapshot.append(
                    .tokenDropped(
                        TraceTokenDrop(seq: 0, timestamp: snapshotTime, thread: registration.thread, registration: id)))
            }
        }
        if !historyFirst { snapshot += historyLines }
        return snapshot + after
    }

    static func header(since: UInt64) -> TraceHeader {
        TraceHeader(
            pid: 42, process: "app", center: "default", clockMono: since, clockWall: 1_700_000_000_000_000_000,
            producer: "test", since: since)
    }
}
