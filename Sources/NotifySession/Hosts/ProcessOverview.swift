import Foundation
package import NotifyModel
import NotifySystem
package import NotifyTUI
package import NotifyWire
import NotifyTraceViewer

/// The overview's collection and state (view 0): one live stream per inspectable process of a
/// host, each folded into its own `InspectorState`, so a process's row shows the figures its own
/// views show. Owned by the run loop, like the session's model.
///
/// Cost: one connection, one reader thread and one bounded fold per process, at most ``limit``
/// processes; the host is listed once a second, off the run loop's thread. An unattached fold keeps
/// small explain and cascade rings (``foldLinkCapacity``), widened when its views are attached.
/// Each process also keeps what a recording's prelude needs (``SessionRecorder/Memory``), so `r`
/// works once its views are attached: the processes share ``historyBudget`` events of exact
/// history, beyond which a process's prelude is its state only. All told about 2 MB a process
/// (the `notify-bench` row "overview heap per followed process" holds it).
package final class ProcessOverview {
    /// One process: its stream and its fold.
    struct Entry {
        var process: InspectableProcess
        var feed: LiveFeed?
        var model: InspectorState
        var tail: EventTail
        /// What a recording started on this process opens with.
        var memory: SessionRecorder.Memory
        var ended: String?
        /// The listing that first showed the process.
        var seenIn: Int
        /// When its stream was opened (the poll's clock), to tell a socket that never speaks.
        var openedAt: UInt64?
        /// Set when the process cut its stream off: the next look opens it again, for a fresh fold
        /// that goes on counting what was lost.
        var cutOff: CutOffLoss?
    }

    /// How long a stream may stay silent before its first line (a notifytop app sends its header
    /// at once) before its row says it is no notifytop stream.
    package static let silenceLimit: UInt64 = 5_000_000_000

    /// Where the processes are listed and opened.
    package let host: any InspectionHost
    /// The most processes followed at once; more are left out of the overview.
    package let limit: Int
    /// Events of exact history kept across the followed processes, shared equally among those
    /// not attached (the attached one keeps a session's own).
    package let historyBudget: Int
    let configuration: InspectorConfiguration
    private(set) var entries: [Int32: Entry] = [:]
    /// The process the session's views show: the session folds its stream, not the overview.
    private(set) var attachedPid: Int32?
    private var nextListing: UInt64 = 0
    private let look = OverviewLook()
    /// Listings made so far.
    package private(set) var listings = 0
    /// The listing during which the attached process's stream was seen to end.
    private var attachedEndedIn: Int?
    /// Why the last listing failed, if it did.
    package private(set) var listingFailure: String?
    /// The socket directory the last listing read, as messages name it.
    package private(set) var directory: String?
    /// Processes the last listing named that are not followed, ``limit`` being followed already.
    package private(set) var overLimit = 0
    /// The poll's latest clock reading.
    private var now: UInt64 = 0
    /// The stream being opened on request, and its result once there.
    private let opening = LockedValue(Opening())

    package init(
        host: any InspectionHost, limit: Int = 64, historyBudget: Int = ProcessOverview.defaultHistoryBudget,
        configuration: InspectorConfiguration = .init()
    ) {
        self.host = host
        self.limit = limit
        self.historyBudget = historyBudget
        self.configuration = configuration
        foldConfiguration = Self.foldConfiguration(configuration)
    }

    /// Events of exact history the followed processes share by default: some 10 MB at 150 bytes
    /// an event.
    package static let defaultHistoryBudget = 65_536
    /// Posts and deliveries an unattached process's explain and cascade keep: about 0.6 MB full.
    package static let foldLinkCapacity = 2_048

    /// The configuration an unattached process is folded with: the session's, with the explain
    /// and cascade rings cut to ``foldLinkCapacity`` (its rows need none of them). Attaching
    /// widens them again (``InspectorState/widenDetail(to:)``).
    package static func foldConfiguration(_ configuration: InspectorConfiguration) -> InspectorConfiguration {
        var folded = configuration
        folded.explainLinkCapacity = min(configuration.explainLinkCapacity, foldLinkCapacity)
        return folded
    }

    /// ``configuration`` as ``foldConfiguration(_:)`` cuts it.
    private let foldConfiguration: InspectorConfiguration

    /// The pids followed, ascending.
    package var pids: [Int32] { entries.keys.sorted() }

    /// Takes what the last look at the host found (opening new processes, dropping those that
    /// left), starts the next look once a second, and folds what every stream but the attached one
    /// sent. The looks run on a thread of their own.
    package func poll(now: UInt64) {
        self.now = max(self.now, now)
        if let found = look.take() { apply(found) }
        if now >= nextListing, look.start(on: host, known: streamed, room: limit - streamed.count) {
            nextListing = now + 1_000_000_000
        }
        // Over a copy of the keys: iterating the dictionary itself would keep its storage shared
        // while `drain` mutates it, so every entry (and each fold's rings) would be copied.
        for pid in Array(entries.keys) where pid != attachedPid {
            drain(pid)
        }
    }

    /// Lists the host now, on this thread.
    package func refresh() {
        apply(OverviewLook.look(on: host, known: streamed, room: limit - streamed.count))
    }

    /// The processes with a stream.
    private var streamed: Set<Int32> { Set(entries.compactMap { $0.value.feed == nil ? nil : $0.key }) }

    private func apply(_ found: OverviewLook.Found) {
        let listing: HostListing
        switch found.listing {
        case .success(let value):
            listing = value
            listingFailure = nil
            directory = value.directory
            listings += 1
        case .failure(let failure):
            listingFailure = failure.description
            return
        }
        let listed = Set(listing.processes.map(\.pid))
        for pid in Array(entries.keys) where !listed.contains(pid) {
            if pid != attachedPid { entries[pid]?.feed?.stop() }  // the session stops the attached one
            entries[pid] = nil
        }
        let onDemand = host is any OnDemandHost
        for process in listing.processes {
            if entries[process.pid] == nil {
                guard found.opened[process.pid] != nil || onDemand, entries.count < limit else { continue }
                entries[process.pid] = Entry(
                    process: process, model: InspectorState(configuration: foldConfiguration), tail: EventTail(),
                    memory: SessionRecorder.Memory(historyLimit: historyShare), seenIn: listings)
                shareHistory()
            }
            entries[process.pid]?.process = process
            // A stream opened for a process that meanwhile got one is dropped (its reader closes).
            guard entries[process.pid]?.feed == nil, let opened = found.opened[process.pid] else { continue }
            switch opened {
            case .success(let reader):
                if let cutOff = entries[process.pid]?.cutOff {
                    var model = InspectorState(configuration: foldConfiguration)
                    for gap in cutOff.carriedGaps { model.apply(gap) }
                    entries[process.pid]?.model = model
                    entries[process.pid]?.tail = EventTail()
                    entries[process.pid]?.cutOff = nil
                }
                entries[process.pid]?.feed = LiveFeed(reader: reader)
                entries[process.pid]?.ended = nil
                entries[process.pid]?.openedAt = now
            case .failure(let failure):
                entries[process.pid]?.ended = failure.description
            }
        }
        overLimit = listing.processes.count { entries[$0.pid] == nil }
    }

    /// Why a row's stream shows nothing: it never sent a first line within ``silenceLimit``.
    private func silence(_ entry: Entry, fold: InspectorState) -> String? {
        guard fold.header == nil, entry.feed != nil, let opened = entry.openedAt,
            now >= opened, now - opened >= Self.silenceLimit
        else { return nil }
        return "not a notifytop stream: nothing received in \(Self.silenceLimit / 1_000_000_000) s"
    }

    /// Each unattached process's part of ``historyBudget``.
    private var historyShare: Int {
        historyBudget / max(1, entries.count - (attachedPid == nil ? 0 : 1))
    }

    /// Lowers the unattached processes' history limits to their share, once more share it.
    private func shareHistory() {
        let share = historyShare
        for pid in entries.keys where pid != attachedPid && entries[pid]!.memory.historyLimit > share {
            entries[pid]?.memory.setHistoryLimit(share)
        }
    }

    private func drain(_ pid: Int32) {
        guard var entry = entries[pid], let feed = entry.feed else { return }
        entries[pid] = nil  // the fold below mutates the only copy
        let (end, _) = feed.drain { batches in
            for batch in batches {
                Self.fold(batch, into: &entry.model, tail: &entry.tail, memory: &entry.memory)
            }
        }
        if let end, entry.ended == nil {
            entry.ended = end.description
            entry.model.setStream(.ended(end.description))
            if case .cutOff = end {
                // The process goes on: the next look opens it again.
                entry.ended = end.description + "; reconnecting"
                entry.cutOff = CutOffLoss(
                    text: end.description, lost: entry.model.eventsLost, lostBehind: entry.model.eventsLostBehind)
                entry.feed = nil
            }
        }
        entries[pid] = entry
    }

    /// What an unattached process keeps of one batch of its stream: its fold, its tail, and what a
    /// recording's prelude needs.
    package static func fold(
        _ batch: [TraceEvent], into model: inout InspectorState, tail: inout EventTail,
        memory: inout SessionRecorder.Memory
    ) {
        tail.append(contentsOf: batch)
        for event in batch {
            model.apply(event)
            memory.observe(event)
        }
    }

    /// Whether `pid` is listed by a host that attaches on request (``OnDemandHost``) and has no
    /// stream yet: ``startOpening(_:)`` opens it.
    func needsOpening(_ pid: Int32) -> Bool {
        host is any OnDemandHost && entries[pid] != nil && entries[pid]?.feed == nil
    }

    /// Starts opening `pid`'s stream on a thread of its own (attaching probes takes seconds, which
    /// the screen must not wait for); ``finishOpening()`` takes the result. False when one is
    /// being opened already.
    func startOpening(_ pid: Int32) -> Bool {
        guard let process = entries[pid]?.process else { return false }
        let started = opening.withLock { state -> Bool in
            if state.pid != nil { return false }
            state = Opening(pid: pid, result: nil)
            return true
        }
        guard started else { return false }
        Thread.detachNewThread { [host, opening] in
            let result: Result<TraceReader, HostFailure>
            do throws(HostFailure) {
                result = .success(try host.open(process))
            } catch {
                result = .failure(error)
            }
            opening.withLock { $0.result = result }
        }
        return true
    }

    /// The process whose opening ended, once: its stream is now its entry's (nil failure), or why
    /// it could not be opened. Nil while it runs or when none was started.
    func finishOpening() -> (pid: Int32, failure: HostFailure?)? {
        guard
            let (pid, result) = opening.withLock({ state -> (Int32, OpeningResult)? in
                guard let pid = state.pid, let result = state.result else { return nil }
                state = Opening()
                return (pid, OpeningResult(result))
            })
        else { return nil }
        switch result.value {
        case .success(let reader):
            guard entries[pid] != nil, entries[pid]?.feed == nil else {
                // Dropped: its stream closes, and with it the probes.
                return (pid, HostFailure("process \(pid) left the overview while it was being attached"))
            }
            entries[pid]?.feed = LiveFeed(reader: reader)
            entries[pid]?.ended = nil
            entries[pid]?.openedAt = now
            return (pid, nil)
        case .failure(let failure):
            return (pid, failure)
        }
    }

    /// The pid being opened, if any.
    var openingPid: Int32? { opening.withLock { $0.pid } }

    /// Whether ``take(_:)`` would hand `pid` over.
    func canTake(_ pid: Int32) -> Bool { entries[pid]?.feed != nil }

    /// The attached process cut the session's stream off: the next look opens it again, and
    /// ``take(_:)`` then hands over the new stream.
    func reopen(_ pid: Int32) {
        entries[pid]?.feed = nil
    }

    /// Hands a process's stream and fold to the session; nil when it is not followed or has no stream.
    func take(_ pid: Int32) -> Entry? {
        guard var entry = entries[pid], entry.feed != nil else { return nil }
        attachedPid = pid
        attachedEndedIn = nil
        // The session's copies are the ones that grow: these would only hold what they drop (and
        // make the session's first fold copy every ring).
        entries[pid]?.memory = SessionRecorder.Memory(historyLimit: 0)
        entries[pid]?.model = InspectorState(configuration: foldConfiguration)
        entries[pid]?.tail = EventTail(capacity: 1)
        entry.model.widenDetail(to: configuration)
        return entry
    }

    /// Takes back the attached process's fold from the session (it goes on folding it here, or,
    /// when the process cut the stream off, starts afresh once it is opened again).
    func giveBack(
        model: InspectorState, tail: EventTail, memory: SessionRecorder.Memory, ended: String?,
        cutOff: CutOffLoss? = nil
    ) {
        guard let pid = attachedPid else { return }
        attachedPid = nil
        entries[pid]?.model = model
        entries[pid]?.tail = tail
        entries[pid]?.memory = memory
        entries[pid]?.ended = ended
        entries[pid]?.cutOff = cutOff
        shareHistory()
    }

    /// Whether `pid` is still followed.
    func follows(_ pid: Int32) -> Bool { entries[pid] != nil }

    /// The attached process's restart: a process called `name` that appeared after the attached
    /// stream ended, with a stream (processes of the same name that ran alongside it are not
    /// restarts). It is followed even when its own stream has ended by now: a short run read to
    /// its end within one poll is still the newest run, and its figures are all there.
    func restart(of name: String) -> Int32? {
        if attachedEndedIn == nil { attachedEndedIn = listings }
        let ended = attachedEndedIn ?? listings
        return entries.values.filter {
            $0.process.name == name && $0.seenIn > ended && $0.feed != nil
        }.max { $0.seenIn < $1.seenIn }?.process.pid
    }

    /// One row per process, ascending by pid; the attached one from the session's own fold.
    package func rows(attached model: InspectorState, ended: String?) -> [OverviewRow] {
        pids.compactMap { pid in
            guard let entry = entries[pid] else { return nil }
            let isAttached = pid == attachedPid
            let fold = isAttached ? model : entry.model
            let waiting = entry.feed == nil ? (host as? any OnDemandHost)?.notAttachedState(of: pid) : nil
            return OverviewRow(
                pid: pid, name: entry.process.name,
                center: fold.centers?.joined(separator: ",") ?? fold.header?.center ?? "",
                uptimeSeconds: entry.process.uptimeSeconds, summary: fold.overview,
                ended: (isAttached ? ended : entry.ended) ?? silence(entry, fold: fold), isAttached: isAttached,
                threads: waiting?.threads ?? (fold.header == nil ? nil : fold.overview.threads),
                notAttached: waiting?.state, skippedLines: entry.feed?.skippedLineCount ?? 0)
        }
    }

    /// Stops every stream.
    package func stop() {
        for entry in entries.values { entry.feed?.stop() }
    }
}

/// A stream being opened on request (``ProcessOverview/startOpening(_:)``).
struct Opening: @unchecked Sendable {  // the reader is used by one thread at a time: made there, taken here
    var pid: Int32?
    var result: Result<TraceReader, HostFailure>?
}

/// An opening's result carried out of the lock.
private struct OpeningResult: @unchecked Sendable {  // as ``Opening``
    let value: Result<TraceReader, HostFailure>
    init(_ value: Result<TraceReader, HostFailure>) { self.value = value }
}
