import Foundation
import Logging
import NotifyWire
import NotifyKit
import NotifySystem

/// The background side of ``NotifyInspector``: accepts viewers, drains the ring, encodes lines once
/// and queues them to every viewer. One thread owns everything below `state`.
final class TraceExporter: @unchecked Sendable {  // `control` is locked; the rest belongs to the exporter thread
    /// The centers started with, in the header's order: the first indices in the stream.
    private let centers: [NotifyCenter]
    /// Every center streamed: those, and the process's others the inspector follows.
    private let streamed: StreamedCenters
    private let listener: UnixSocket
    private let socketPath: String
    private let ring: EventRing
    private let limits: ViewerLimits
    private let acceptOne: (UnixSocket) -> UnixSocket.AcceptResult
    private let processName: String
    /// Where the inspector's own events go, on the exporter thread; none by default.
    private let logger: Logger?

    private struct Control {
        var stopReason: TraceEndReason?
        var stopped = false
        var viewerCount = 0
        var peakQueuedBytes = 0
        var viewerHasMissed = false
    }
    private let control = LockedValue(Control())
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled once every viewer has its `end` line queued (or was closed).
    private let endQueued = DispatchSemaphore(value: 0)

    // Exporter-thread state.
    private var viewers: [ViewerConnection] = []
    /// True while a viewer is attached: the ring is attached to every streamed center.
    private var attached = false
    /// The centers the stream introduced after its header, by ring tag.
    private var introduced: [UInt8: StreamedCenters.Member] = [:]
    /// Tags whose center ended: given back after the next drain, once its last records are out.
    private var endedTags: [UInt8] = []
    private var translator: ProbeEventConverter
    private var spare: [ProbeEvent] = []
    private var lines: [TraceEvent] = []
    private var chunk = EncodedChunk()
    private let names = QuotedNameCache()
    /// Events the last pass drained.
    private var lastDrainCount = 0
    /// When lines last went out: a quiet stream gets a clock line a second after.
    private var lastLineAt: UInt64 = 0
    /// Lines are encoded and written this many bytes at a time, no more than a viewer's queue holds.
    private let chunkBytes: Int
    /// While descriptors run out, `accept` waits until then instead of failing in a loop.
    private var acceptPausedUntil: UInt64 = 0
    /// The listener was readable at the last wait; else `accept` is tried only every few
    /// milliseconds, not on every pass of a busy exporter.
    private var listenerReadable = true
    private var acceptDueAt: UInt64 = 0
    private static let acceptInterval: UInt64 = 5_000_000
    /// Events drained at once beyond which the next pass follows without a pause.
    private static let fullBatch = 4096
    private var acceptBackoff: UInt64 = TraceExporter.firstAcceptBackoff
    private static let firstAcceptBackoff: UInt64 = 10_000_000
    private static let lastAcceptBackoff: UInt64 = 1_000_000_000
    /// How long a viewer being cut off may take to receive its last lines before it departs.
    private static let closingGrace: UInt64 = 1_000_000_000
    private var closingDeadlines: [ObjectIdentifier: UInt64] = [:]
    private let departing: DepartingViewers
    private var peakQueued = 0
    private var viewerMissNoted = false
    private var admissions = Double.infinity
    private var admissionsRefilledAt: UInt64 = 0
    /// What viewers drained while probed, for viewers that attach later.
    private let totals = WatchedTotals()
    /// The center's unwatched counts as the viewers attached now last received them.
    private var lastSentUnwatched: [NotifyHistory.Key: HistoryCounts] = [:]
    private var historyPolledAt: UInt64 = 0
    /// How often the unwatched counts are read while viewers are attached: posts that found no
    /// probe just before one attached count there after the snapshot.
    private static let historyPollInterval: UInt64 = 100_000_000

    /// - Parameter accept: Takes one connection from the listener (replaceable in tests).
    init(
        centers: [NotifyCenter], others: NotifyInspector.OtherCenters = .none, listener: UnixSocket,
        socketPath: String, ringCapacity: Int, limits: ViewerLimits, logger: Logger? = nil,
        accept: @escaping (UnixSocket) -> UnixSocket.AcceptResult = { $0.acceptConnection() }
    ) {
        self.logger = logger
        self.centers = centers
        translator = ProbeEventConverter(centerCount: centers.count)
        self.listener = listener
        self.socketPath = socketPath
        let ring = EventRing(capacity: ringCapacity)
        self.ring = ring
        streamed = StreamedCenters(listed: centers, others: others, ring: ring)
        self.limits = limits
        self.chunkBytes = min(limits.eventBytes, 1 << 16)
        self.acceptOne = accept
        self.departing = DepartingViewers(capacity: limits.maximumViewers)
        self.processName = ProcessInfoReader.name(of: getpid())
    }

    var viewerCount: Int { control.withLock { $0.viewerCount } }
    /// The most bytes queued for all viewers together at one time.
    var peakQueuedBytes: Int { control.withLock { $0.peakQueuedBytes } }
    /// Whether a viewer has missed an event (a `viewer-behind` loss) since the exporter started.
    var viewerHasMissed: Bool { control.withLock { $0.viewerHasMissed } }

    func start() {
        logger?.info(
            "notifytop inspector listening",
            metadata: ["socket": "\(socketPath)", "centers": "\(centers.count)"])
        streamed.start()
        let thread = Thread { [self] in
            run()
            endQueued.signal()
            finished.signal()
        }
        thread.name = "notifytop-export"
        thread.start()
    }

    /// Asks the exporter to end every stream with `reason`, waits for it (a second longer than the
    /// end of a stream may take), and removes the socket.
    func stop(reason: TraceEndReason) {
        let first = control.withLock { control -> Bool in
            guard control.stopReason == nil else { return false }
            control.stopReason = reason
            return true
        }
        guard first else { return }
        // Two waits: the end line is queued after work bounded by the rings' capacity, which a
        // slow build (ThreadSanitizer) or a busy machine stretches past any viewer allowance;
        // only then the viewers' allowances start. An exit that gave up during the first would
        // lose the end line the viewer needs.
        _ = endQueued.wait(timeout: .now() + .nanoseconds(Int(min(limits.endQueuedNanoseconds, UInt64(Int.max)))))
        let patience = limits.endFlushNanoseconds + limits.endLastNanoseconds + 1_000_000_000
        _ = finished.wait(timeout: .now() + .nanoseconds(Int(min(patience, UInt64(Int.max)))))
        unlink(socketPath)
        NotifyInspector.releaseClaim(on: socketPath)
        ExitCleanup.unregister(self)
    }

    private func run() {
        while true {
            if let reason = control.withLock({ $0.stopReason }) {
                finish(reason: reason)
                logger?.info("notifytop inspector stopped", metadata: ["reason": "\(reason.rawValue)"])
                return
            }
            acceptViewers()
            let moved = pump()
            pollHistoryIfDue()
            sendClockLineIfQuiet(moved: moved)
            noteViewerFigures()
            viewers.forEach { $0.flush() }
            let now = MonotonicClock.now()
            for viewer in viewers where viewer.hasMissed {
                viewer.reportMissed(now: now)
                viewer.flush()
            }
            cutOffStalledViewers(now: now)
            let before = viewers.count
            viewers.removeAll { $0.isClosed }
            if viewers.count != before {
                viewersChanged()
                logger?.info("notifytop viewer detached", metadata: ["viewers": "\(viewers.count)"])
            }
            if !moved {
                waitForConnection(milliseconds: viewers.contains { $0.queuedByteCount > 0 } ? 1 : 2)
            } else if lastDrainCount < Self.fullBatch {
                // A small batch: let events gather for a millisecond rather than pay a pass (and its
                // system calls) for a handful; the ring holds far more than a millisecond's worth.
                waitForConnection(milliseconds: 1)
            }
        }
    }

    private func acceptViewers() {
        let now = MonotonicClock.now()
        guard now >= acceptPausedUntil, listenerReadable || now >= acceptDueAt else { return }
        listenerReadable = false
        acceptDueAt = now + Self.acceptInterval
        // A few per pass, so that a flood of connections cannot starve the pump.
        for _ in 0..<16 {
            let socket: UnixSocket
            switch acceptOne(listener) {
            case .accepted(let accepted):
                socket = accepted
                acceptBackoff = Self.firstAcceptBackoff
            case .none:
                return
            case .failed(let code):
                // Out of descriptors (or memory): the connection stays queued; try again later
                // rather than spin on a listener that stays readable.
                logger?.error(
                    "notifytop viewer not accepted; retrying",
                    metadata: [
                        "errno": "\(code)", "error": "\(String(cString: strerror(code)))",
                        "retry-in-ms": "\(acceptBackoff / 1_000_000)",
                    ])
                acceptPausedUntil = MonotonicClock.now() + acceptBackoff
                acceptBackoff = min(acceptBackoff * 2, Self.lastAcceptBackoff)
                return
            }
            let full = viewers.count >= limits.maximumViewers
            guard !full, takeAdmission() else {
                logger?.warning(
                    "notifytop viewer refused",
                    metadata: [
                        "reason": full ? "viewer-limit" : "admission-rate",
                        "viewers": "\(viewers.count)", "maximum-viewers": "\(limits.maximumViewers)",
                    ])
                refuse(socket)
                continue
            }
            let viewer = ViewerConnection(socket: socket, eventLimit: limits.eventBytes)
            var lines: [TraceEvent] = [.header(makeHeader())]
            if !attached {
                // The first viewer: attaching makes each center put its live registrations in the ring.
                // A fresh translator (no stale definitions) that numbers on from the last one.
                syncCenters()
                translator = ProbeEventConverter(
                    maximumObjects: translator.maximumObjects,
                    lastSequence: translator.lastSequence, centerCount: centers.count)
                introduceCenters(into: &lines)
                let unstreamed = streamed.unstreamedCount
                if unstreamed > 0 {
                    lines.append(
                        .gap(
                            TraceGap(
                                seq: translator.nextSequence(), timestamp: MonotonicClock.now(),
                                count: UInt64(unstreamed), reason: .centerLimit)))
                }
                translator.introduceLiveThreads(at: MonotonicClock.now(), into: &lines)
                streamed.attachAll()
                attached = true
                // Read after attaching: what posts still count unwatched from here on, polling sends.
                let history = readHistory()
                lastSentUnwatched = history.counts
                historyPolledAt = MonotonicClock.now()
                let past = ViewerHistory(unwatched: lastSentUnwatched, history: history, totals: totals)
                let now = MonotonicClock.now()
                translator.introduce(past, at: now, into: &lines)
                lines += translator.historyLines(past, at: now)
            } else {
                _ = pump()
                // The viewers attached now get the unwatched counts' growth first.
                let history = pollHistory()
                let past = ViewerHistory(unwatched: lastSentUnwatched, history: history, totals: totals)
                var threads: [TraceEvent] = []
                let now = MonotonicClock.now()
                translator.introduceLiveThreads(at: now, into: &threads)
                translator.introduce(past, at: now, into: &threads)
                broadcast(threads)
                introduceCenters(into: &lines)
                lines += translator.snapshot(history: past, totals: totals, at: now)
            }
            let now = MonotonicClock.now()
            var bytes: [UInt8] = []
            for line in lines {
                bytes.removeAll(keepingCapacity: true)
                TraceEncoder.encode(line, into: &bytes)
                viewer.enqueue(bytes[...], as: .required(seq: line.seq, events: Self.events(in: line)), now: now)
            }
            viewers.append(viewer)
            viewersChanged()
            logger?.info("notifytop viewer attached", metadata: ["viewers": "\(viewers.count)"])
        }
    }

    private func noteViewerFigures() {
        if !viewerMissNoted && viewers.contains(where: \.hasEverMissed) {
            viewerMissNoted = true
            control.withLock { $0.viewerHasMissed = true }
        }
        let queued = viewers.reduce(0) { $0 + $1.queuedByteCount }
        guard queued > peakQueued else { return }
        peakQueued = queued
        control.withLock { $0.peakQueuedBytes = queued }
    }

    /// Spends one admission if the budget (refilled at `admissionsPerSecond`) has one.
    private func takeAdmission() -> Bool {
        let now = MonotonicClock.now()
        let burst = limits.admissionsPerSecond.rounded(.up)
        admissions = min(burst, admissions + Double(now &- admissionsRefilledAt) / 1e9 * limits.admissionsPerSecond)
        admissionsRefilledAt = now
        guard admissions >= 1 else { return false }
        admissions -= 1
        return true
    }

    /// Tells a viewer beyond the limit why it is turned away, in one header and one `end` line.
    private func refuse(_ socket: UnixSocket) {
        var bytes: [UInt8] = []
        TraceEncoder.encode(.header(makeHeader()), into: &bytes)
        // Not a number from the stream: this stream has no other line to follow it.
        TraceEncoder.encode(
            .end(
                TraceEnd(
                    seq: translator.lastSequence + 1, timestamp: MonotonicClock.now(),
                    reason: .viewerLimit)), into: &bytes)
        _ = bytes.withUnsafeBytes { socket.writeSome($0) }
        socket.close()
    }

    /// Cuts off viewers that stayed behind too long, or whose required lines outgrew their share.
    private func cutOffStalledViewers(now: UInt64) {
        for viewer in viewers where !viewer.isEnding {
            let behind = viewer.behindSince.map { now &- $0 } ?? 0
            let stalled =
                viewer.behindSince != nil
                && (behind >= limits.stalledNanoseconds || viewer.queuedByteCount > limits.shareBytes)
            guard stalled else { continue }
            logger?.warning(
                "notifytop viewer cut off",
                metadata: [
                    "cause": behind >= limits.stalledNanoseconds ? "stalled" : "over-its-share",
                    "behind-ms": "\(behind / 1_000_000)", "queued-bytes": "\(viewer.queuedByteCount)",
                ])
            // The end takes the next number without using it up: no line follows it in this stream.
            viewer.cutOffBehind(seq: translator.lastSequence + 1, now: now)
            closingDeadlines[ObjectIdentifier(viewer)] = now + Self.closingGrace
            viewer.flush()
        }
        var departed = false
        for viewer in viewers where viewer.isEnding {
            let key = ObjectIdentifier(viewer)
            if viewer.queuedByteCount == 0 {
                viewer.close()
                closingDeadlines[key] = nil
            } else if now >= closingDeadlines[key] ?? 0 {
                closingDeadlines[key] = nil
                departing.add(viewer, now: now)
                departed = true
            }
        }
        if departed {
            viewers.removeAll { departing.contains($0) }
            viewersChanged()
        }
        departing.flush(now: now)
    }

    /// How many events a line counts for when it is lost: threads, definitions and unnumbered
    /// lines count for none.
    private static func events(in line: TraceEvent) -> UInt64 {
        switch line {
        case .thread, .end: 0
        case .gap(let gap): gap.count
        default: line.seq == nil ? 0 : 1
        }
    }

    /// Reads the center's unwatched counts and sends their growth since the last reading to every
    /// viewer as history lines; returns the reading.
    @discardableResult
    private func pollHistory() -> NotifyHistory {
        let history = readHistory()
        let now = MonotonicClock.now()
        historyPolledAt = now
        var lines: [TraceEvent] = []
        let keys = history.counts.keys.sorted { ($0.thread, $0.name ?? "") < ($1.thread, $1.name ?? "") }
        for key in keys {
            let growth = history.counts[key]!.since(lastSentUnwatched[key] ?? HistoryCounts())
            guard !growth.isZero else { continue }
            _ = translator.introduceThread(key.thread, at: now, known: history.exitedThreads[key.thread], into: &lines)
            lines.append(
                .history(
                    TraceHistory(
                        timestamp: now, thread: key.thread, name: key.name, posts: growth.posts,
                        deliveries: growth.deliveries, unheard: growth.unheard)))
        }
        lastSentUnwatched = history.counts
        broadcast(lines)
        return history
    }

    private func pollHistoryIfDue() {
        guard attached, !viewers.isEmpty,
            MonotonicClock.now() &- historyPolledAt >= Self.historyPollInterval
        else { return }
        pollHistory()
        // At the same pace: a viewer learns of a dead object filter within the interval.
        for (_, _, center) in streamed.live() { center.lookForDeadObjectFilters() }
    }

    /// Takes in the centers made and ended since the last pass: a new one is introduced to the
    /// viewers before any of its records; an ended one's tag is given back after the next drain.
    private func syncCenters() {
        let changes = streamed.takeChanges()
        var lines: [TraceEvent] = []
        for (tag, member) in changes.began {
            introduced[tag] = member
            translator.assign(tag: tag, index: member.index)
            lines.append(.center(TraceCenter(index: member.index, label: member.label)))
        }
        if changes.notStreamed > 0 {
            lines.append(
                .gap(
                    TraceGap(
                        seq: translator.nextSequence(), timestamp: MonotonicClock.now(), count: changes.notStreamed,
                        reason: .centerLimit)))
        }
        if attached { broadcast(lines) }
        endedTags += changes.ended
    }

    /// The `center` lines of every center introduced after the header, for a viewer attaching now.
    private func introduceCenters(into lines: inout [TraceEvent]) {
        for (tag, member) in introduced.sorted(by: { $0.value.index < $1.value.index }) {
            translator.assign(tag: tag, index: member.index)
            lines.append(.center(TraceCenter(index: member.index, label: member.label)))
        }
    }

    /// Moves events from the ring to the viewers, a chunk at a time; returns whether there were any.
    /// With no viewer (or no probe attached) what is drained still adds to the totals and the numbering.
    private func pump() -> Bool {
        // Tags given back now had their last records drained by the previous pass.
        let releasable = endedTags
        endedTags = []
        // A center made after the sync below has no line yet: its records, all stamped after this,
        // wait for the next drain.
        let syncedAt = MonotonicClock.now()
        syncCenters()
        defer {
            streamed.release(releasable)
            for tag in releasable { introduced[tag] = nil }
        }
        // Encodes on locals: no exclusivity check per line on the exporter's properties.
        var encoder = RecordLineEncoder(
            converter: ProbeEventConverter(), chunk: EncodedChunk(), lines: [], names: names, chunkBytes: chunkBytes,
            totals: totals, send: { [unowned self] chunk in send(&chunk) })
        swap(&encoder.converter, &translator)
        swap(&encoder.chunk, &chunk)
        swap(&encoder.lines, &lines)
        encoder.reportsLoss = !viewers.isEmpty
        let lost = ring.drain(into: &encoder, notAfter: syncedAt)
        if viewers.isEmpty {
            // No one to encode for (the last viewer just left): only the numbering had to go on.
            encoder.chunk.removeAll()
        } else {
            send(&encoder.chunk)
        }
        swap(&encoder.converter, &translator)
        swap(&encoder.chunk, &chunk)
        swap(&encoder.lines, &lines)
        lastDrainCount = encoder.count
        return lost > 0 || encoder.count > 0
    }

    /// Queues `chunk` to every viewer, writes it, and empties it.
    private func send(_ chunk: inout EncodedChunk) {
        guard !chunk.isEmpty else { return }
        let now = MonotonicClock.now()
        for viewer in viewers {
            viewer.enqueue(chunk: chunk.bytes, ends: chunk.ends, kinds: chunk.kinds, now: now)
            viewer.flush()
        }
        chunk.removeAll()
    }

    private func broadcast(_ lines: [TraceEvent]) {
        guard !viewers.isEmpty else { return }
        for line in lines { chunk.append(line) }
        send(&chunk)
    }

    private func viewersChanged() {
        let count = viewers.count
        control.withLock { $0.viewerCount = count }
        // Every viewer (a new one after its snapshot) learns how many there are now.
        if count > 0, attached { sendClockLine(now: MonotonicClock.now()) }
        if count == 0, attached {
            streamed.detachAll()
            attached = false
            // What the probe recorded until it detached is watched work: it goes to the totals.
            _ = pump()
        }
    }

    /// Ends every stream: what fits within half a second is delivered; a viewer still behind then
    /// gives up the lines it has not started, and gets a gap counting their events and the end.
    private func finish(reason: TraceEndReason) {
        // No new records from here: what the app's threads still post (an exit runs beside them)
        // would otherwise keep the rings filling behind the end line.
        streamed.stop()
        streamed.detachAll()
        attached = false
        _ = pump()
        // Records stamped before the first drain's limit but published after it.
        _ = pump()
        let end = TraceEnd(seq: translator.nextSequence(), timestamp: MonotonicClock.now(), reason: reason)
        for viewer in viewers where !viewer.isEnding { viewer.finish(with: end) }
        endQueued.signal()
        drain(for: limits.endFlushNanoseconds)
        // A viewer cut off before keeps the end line that says why.
        for viewer in viewers
        where !viewer.isClosed && viewer.queuedByteCount > 0
            && closingDeadlines[ObjectIdentifier(viewer)] == nil
        {
            viewer.cutOff(with: end)
        }
        drain(for: limits.endLastNanoseconds)
        viewers.forEach { $0.close() }
        viewers.removeAll()
        departing.closeAll()
        listener.close()
        control.withLock { $0.viewerCount = 0 }
    }

    /// A `tick` line once a second while nothing else is sent, so viewers' models move through
    /// quiet periods on the stream's own clock. Every viewer gets it, as a line that is never
    /// dropped nor counted as a lost event: so no viewer sees a hole in `seq` for it.
    private func sendClockLineIfQuiet(moved: Bool) {
        let now = MonotonicClock.now()
        if moved || !attached || viewers.isEmpty {
            lastLineAt = now
            return
        }
        guard now - min(now, lastLineAt) >= 1_000_000_000 else { return }
        sendClockLine(now: now)
    }

    /// A `tick` line, with the number of viewers, to every viewer.
    private func sendClockLine(now: UInt64) {
        lastLineAt = now
        var line: [UInt8] = []
        let seq = translator.nextSequence()
        TraceEncoder.encode(.tick(TraceTick(seq: seq, timestamp: now, viewers: UInt64(viewers.count))), into: &line)
        for viewer in viewers { viewer.enqueue(line[...], as: .required(seq: seq, events: 0), now: now) }
    }

    private func drain(for nanoseconds: UInt64) {
        let deadline = MonotonicClock.now() + nanoseconds
        while viewers.contains(where: { !$0.isClosed && $0.queuedByteCount > 0 }) && MonotonicClock.now() < deadline {
            viewers.forEach { $0.flush() }
            usleep(1_000)
        }
    }

    private func waitForConnection(milliseconds: Int32) {
        // While accepting is paused the listener stays readable: wait on the clock alone.
        var poller = pollfd(
            fd: MonotonicClock.now() < acceptPausedUntil ? -1 : listener.descriptor,
            events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, milliseconds) > 0 && poller.revents & Int16(POLLIN) != 0 { listenerReadable = true }
    }

    private func makeHeader() -> TraceHeader {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let mono = MonotonicClock.now()
        return TraceHeader(
            pid: getpid(), process: processName, center: centers[0].label,
            clockMono: mono, clockWall: UInt64(wall.tv_sec) * 1_000_000_000 + UInt64(wall.tv_nsec),
            producer: "NotifyKit \(PackageVersion.current)", since: centers.map(\.historySince).min(),
            centers: centers.count > 1 ? centers.map(\.label) : nil)
    }

    /// The streamed centers' unwatched history, as one process's.
    private func readHistory() -> NotifyHistory {
        NotifyHistory.merging(streamed.live().map { $0.center.history() })
    }
}
