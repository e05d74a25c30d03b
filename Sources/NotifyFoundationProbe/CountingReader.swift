package import NotifyWire

/// Turns ``CountingProgram``'s map reads into `history` lines marked `recent`: each read's
/// differences from the counts already written, per thread and name (deliveries also per
/// registration), so the model folds them as it folds events.
///
/// The maps only grow, so a difference is exact whenever it is taken. A read is written once the
/// lines printed before it (adds above all, which deliveries are tied to) have left
/// ``ProbeLineOrder``: ``holdNanoseconds`` after it arrived.
package struct CountingReader {
    enum Key: Hashable {
        case posts(CountedPost)
        case unheard(CountedPost)
        case deliveries(CountedPost, closure: ProbeEventBuilder.ClosureKey, born: UInt64)
    }

    /// How long a read waits for the lines before it.
    package var holdNanoseconds: UInt64
    /// The counts of the read under way (between `K` and `k`), or of bpftrace's exit print.
    private var reading: [Key: UInt64] = [:]
    private var readingTime: UInt64 = 0
    /// Whole reads waiting for the lines before them: when each arrived, the probes' time, counts.
    private var waiting: [(arrived: UInt64, time: UInt64, counts: [Key: UInt64])] = []
    /// The counts written so far.
    private var written: [Key: UInt64] = [:]
    /// Whether a map was seen full (a count may have been refused), reported once.
    private var reportedFull = false
    /// Registrations by their add's time (the `born` deliveries are counted under); the oldest
    /// half is forgotten past ``registrationsKept``.
    private var byBirth: [UInt64: UInt64] = [:]
    static let registrationsKept = 262_144

    /// Notes the registrations among `events` (written by the builder), by their add's time.
    package mutating func note(_ events: [TraceEvent]) {
        for case .registered(let registration) in events where !registration.preexisting {
            byBirth[registration.timestamp] = registration.id
        }
        if byBirth.count > Self.registrationsKept {
            let oldest = byBirth.keys.sorted().prefix(byBirth.count / 2)
            for time in oldest { byBirth[time] = nil }
        }
    }

    package init(holdNanoseconds: UInt64) { self.holdNanoseconds = holdNanoseconds }

    /// Takes one line, arrived at `now` (monotonic ns).
    package mutating func add(_ line: CountingLine, now: UInt64) {
        switch line {
        case .begin(let time):
            reading = [:]
            readingTime = time
        case .end:
            waiting.append((now, readingTime, reading))
            reading = [:]
        case .switched, .thread: break
        case .posts(let post, let count): reading[.posts(post)] = count
        case .unheard(let post, let count): reading[.unheard(post)] = count
        case .deliveries(let post, let function, let context, let born, let count):
            reading[.deliveries(post, closure: .init(function: function, context: context), born: born)] = count
        }
    }

    /// Writes the reads that have waited long enough.
    package mutating func release(now: UInt64, builder: inout ProbeEventBuilder, events: inout [TraceEvent]) {
        while let first = waiting.first, now &- first.arrived >= holdNanoseconds {
            waiting.removeFirst()
            write(first.counts, time: first.time, builder: &builder, events: &events)
        }
    }

    /// Writes every read, and what bpftrace printed as it exited: nothing older can come.
    package mutating func releaseAll(builder: inout ProbeEventBuilder, events: inout [TraceEvent]) {
        for read in waiting { write(read.counts, time: read.time, builder: &builder, events: &events) }
        waiting.removeAll()
        if !reading.isEmpty {
            write(reading, time: max(readingTime, builder.lastTime), builder: &builder, events: &events)
            reading = [:]
        }
    }

    /// Another bpftrace took over: its maps count from zero.
    package mutating func restart() {
        reading = [:]
        waiting.removeAll()
        written = [:]
    }

    private struct Row: Hashable {
        var thread: UInt64
        var name: String
        var registration: UInt64?
    }

    private mutating func write(
        _ counts: [Key: UInt64], time: UInt64, builder: inout ProbeEventBuilder, events: inout [TraceEvent]
    ) {
        var rows: [Row: (posts: UInt64, deliveries: UInt64, unheard: UInt64)] = [:]
        var order: [Row] = []
        var perMap = (posts: 0, unheard: 0, deliveries: 0)
        for (key, total) in counts {
            let before = written[key] ?? 0
            written[key] = total
            switch key {
            case .posts: perMap.posts += 1
            case .unheard: perMap.unheard += 1
            case .deliveries: perMap.deliveries += 1
            }
            guard total > before else { continue }
            let delta = total - before
            let post: CountedPost
            switch key {
            case .posts(let counted), .unheard(let counted), .deliveries(let counted, _, _): post = counted
            }
            let thread = builder.threadID(post.thread, time: time, events: &events)
            let (name, message) = builder.countedName(post)
            _ = builder.streamCenter(post.center, events: &events)
            var row = Row(thread: thread, name: name, registration: nil)
            switch key {
            case .posts:
                if rows[row] == nil { order.append(row) }
                rows[row, default: (0, 0, 0)].posts += delta
            case .unheard:
                if rows[row] == nil { order.append(row) }
                rows[row, default: (0, 0, 0)].unheard += delta
            case .deliveries(_, let closure, let born):
                if born != 0 {
                    row.registration = byBirth[born]
                } else {
                    // Added before attach: found live as a delivery line's would be.
                    let progress = ProbeEventBuilder.PostInProgress(
                        id: 0, center: post.center, name: name, thread: thread, depth: 1, message: message)
                    row.registration = builder.countedRegistration(
                        thread: post.thread, time: time, post: progress, closure: closure, events: &events)
                }
                if rows[row] == nil { order.append(row) }
                rows[row, default: (0, 0, 0)].deliveries += delta
            }
        }
        order.sort { ($0.thread, $0.name, $0.registration ?? 0) < ($1.thread, $1.name, $1.registration ?? 0) }
        for row in order {
            guard let figures = rows[row] else { continue }
            events.append(
                .history(
                    TraceHistory(
                        timestamp: time, thread: row.thread, name: row.name, posts: figures.posts,
                        deliveries: figures.deliveries, unheard: figures.unheard, registration: row.registration,
                        recent: true)))
        }
        if !reportedFull, max(perMap.posts, perMap.unheard, perMap.deliveries) >= CountingProgram.mapKeys {
            reportedFull = true
            builder.lose(1, reason: Self.mapFull, to: &events)
        }
    }

    /// A map held as many keys as it may: counts of new keys may have been refused since.
    package static let mapFull: TraceGapReason = "counting-map-full"
}

extension ProbeEventBuilder {
    /// A counted post's name as a post line would have been named, and its message kind.
    mutating func countedName(_ post: CountedPost) -> (String, TraceMessageKind?) {
        let probed = post.name.probeName?.shown ?? ""
        let message: TraceMessageKind?
        if let known = messageByCaller[post.caller] {
            message = known
        } else {
            message = lookups.message([post.caller])
            messageByCaller[post.caller] = message
        }
        if message != nil, post.metadata != 0, let readable = messageName(post.metadata) { return (readable, message) }
        return (probed, message)
    }

    /// The registration made before attach that counted deliveries of `closure` during `post` are
    /// credited to, found as a delivery line's is (introduced as found live at the first); nil when
    /// none may be (the deliveries count for their name only).
    mutating func countedRegistration(
        thread: Int32, time: UInt64, post: PostInProgress, closure: ClosureKey, events: inout [TraceEvent]
    ) -> UInt64? {
        // A registration seen already (by event lines, or another program's adds): any delivery
        // context is its own here, since a count carries none.
        if let known = byClosure[closure]?.first(where: { id in
            registrations[id].map { fits($0, closure: closure, post: post) } ?? false
        }) {
            return known
        }
        let saved = currentPost[thread]
        let savedRunning = running[thread]
        let unmatchedBefore = unmatchedDeliveries
        currentPost[thread] = post
        running[thread] = []
        startDelivery(thread: thread, time: time, context: 0, closure: closure, events: &events)
        let registration = running[thread]?.last?.registration
        // No delivery closure's context is known here: event mode's deliveries bind their own.
        if let bound = byContext.removeValue(forKey: 0) { registrations[bound]?.boundContext = nil }
        currentPost[thread] = saved
        running[thread] = savedRunning
        if unmatchedDeliveries > unmatchedBefore, case .gap(let gap) = events.last {
            // Counted for its name: not lost (nor its number taken).
            unmatchedDeliveries = unmatchedBefore
            events.removeLast()
            if gap.seq == seq { seq -= 1 }
        }
        return registration
    }
}

extension ProbeEventBuilder {
    /// Handlers running when the probes switched program: the old program's ends of them came
    /// too late and the new one never saw them start.
    package static let probesSwitched: TraceGapReason = "probes-switched"

    /// Another bpftrace program took over: its line counts start from zero, the posts and handlers
    /// under way are forgotten (the new program's lines are not theirs to end), and the running
    /// handlers are a gap ``probesSwitched``.
    package mutating func handOver(to events: inout [TraceEvent]) {
        let count = running.values.reduce(0) { $0 + $1.count }
        tally = ProbeLineTally()
        forgetUnderWay()
        continuing = [:]
        if count > 0 {
            events.append(
                .gap(TraceGap(seq: nextSeq(), timestamp: lastTime, count: UInt64(count), reason: Self.probesSwitched)))
        }
    }

    /// Whether a line of the event program past the cutover continues a post it printed before
    /// the cutover (a delivery, the post's end), on that post's thread: the counting program that
    /// took over counts only posts made after the cutover. A post made inside one of that post's
    /// handlers is the counting program's, and so is every line up to its end.
    package mutating func continuesPostUnderWay(_ line: ProbeLine) -> Bool {
        guard let thread = line.thread else { return false }
        if let depth = continuing[thread], depth > 0 {
            switch line {
            case .post: continuing[thread] = depth + 1
            case .postEnd: continuing[thread] = depth - 1
            default: break
            }
            return false
        }
        guard currentPost[thread] != nil || !(running[thread]?.isEmpty ?? true) else { return false }
        switch line {
        case .post:
            continuing[thread] = 1
            return false
        case .deliveryStart, .deliveryEnd, .postEnd: return true
        default: return false
        }
    }

    /// A line that arrived from a program whose lines before (or after) the cutover are the other
    /// program's to show: counted as received, not shown.
    package mutating func skip(_ line: ProbeLine) {
        if let kind = line.kind { tally.see(kind) }
    }
}
