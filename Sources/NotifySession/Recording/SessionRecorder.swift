package import NotifyWire
package import NotifySystem
import NotifyTraceViewer

/// Records a live session from the moment `r` is pressed: a self-contained log that replays on
/// its own, to the same model the live session has at that moment.
///
/// A log started mid-session must carry what the session learned before, so it opens with a
/// prelude. While the session is short enough (``Memory/historyLimit`` events), the prelude is every
/// event folded so far: the rules' accumulated state (growth samples, checkpoint counts, removal
/// gaps, per-name totals, open findings) then replays exactly. Past that, it is the state that
/// can be rebuilt from lines: the header, every definition, every live registration (marked
/// `preexisting`, with its real registration time) and the token each one has dropped, as a
/// fresh attach would receive them; the rules then start their counts afresh. After the prelude,
/// each event is written as it is folded. (`--record FILE` instead saves the raw bytes from the
/// first one.)
///
/// The prelude's header is re-based to the moment recording starts (its wall clock moved by the
/// same amount, so times still map to the same wall time): a replay folds everything before that
/// at once and paces only what was recorded.
package struct SessionRecorder {
    /// What a prelude needs, kept up to date from every event whether recording or not.
    package struct Memory {
        var header: TraceHeader?
        var definitions: [TraceEvent] = []
        var definitionIndex: [DefinitionKey: Int] = [:]
        var live: [UInt64: TraceRegistration] = [:]
        /// Live registrations whose token was released.
        var droppedTokens: Set<UInt64> = []
        /// The newest event time seen: when a recording started now begins.
        var latest: UInt64 = 0
        /// Every event so far, in order, while ``historyIsComplete``: in chunks of a fixed
        /// capacity, so keeping it never copies what it already holds (a single array would copy
        /// it all, into fresh pages, each time it doubled).
        var history: [[TraceEvent]] = []
        /// Events in `history`.
        private(set) var historyCount = 0
        /// Events one chunk of `history` holds at most.
        static let historyChunk = 4_096
        /// Events the first chunk holds.
        static let firstHistoryChunk = 64
        /// False once more than ``historyLimit`` events arrived: the prelude is then the state only.
        package private(set) var historyIsComplete = true
        /// Events kept for an exact prelude; past this many the history is dropped for good.
        package private(set) var historyLimit: Int
        /// The limit a session's own memory has.
        package static let sessionHistoryLimit = 2_000_000
        /// Definitions kept at most; a log started after this many still replays, with some
        /// objects shown by id only.
        let maximumDefinitions = 200_000

        /// Creates an empty memory that keeps up to `historyLimit` events for an exact prelude
        /// (at the default, some 150 bytes each: the first half hour of `notify-demo`'s 200
        /// posts/s).
        package init(historyLimit: Int = Memory.sessionHistoryLimit) {
            self.historyLimit = historyLimit
        }

        /// Keeps up to `limit` events from now on; a history already longer is dropped for good
        /// (the prelude is then the state only), one still complete goes on growing to the new limit.
        package mutating func setHistoryLimit(_ limit: Int) {
            historyLimit = limit
            guard historyIsComplete, historyCount > limit else { return }
            historyIsComplete = false
            history = []
        }

        /// Notes what a prelude would need from `event`.
        package mutating func observe(_ event: consuming TraceEvent) {
            if let time = event.timestamp, time > latest { latest = time }
            switch event {
            case .header(let header): self.header = header
            case .thread(let thread): define(DefinitionKey(kind: .thread, id: thread.id), event)
            case .type(let type): define(DefinitionKey(kind: .type, id: type.id), event)
            case .object(let object): define(DefinitionKey(kind: .object, id: object.id), event)
            case .callsite(let site): define(DefinitionKey(kind: .callsite, id: site.id), event)
            case .registered(let registration):
                // A repeated snapshot reports a registration already known: keep the first report.
                if live[registration.id] == nil { live[registration.id] = registration }
            case .removed(let removal):
                live[removal.registration] = nil
                droppedTokens.remove(removal.registration)
            case .tokenDropped(let drop):
                if live[drop.registration] != nil { droppedTokens.insert(drop.registration) }
            default: break
            }
            guard historyIsComplete else { return }
            guard historyCount < historyLimit else {
                historyIsComplete = false
                history = []
                return
            }
            if history.isEmpty || history[history.count - 1].count == history[history.count - 1].capacity {
                // Chunks double up to ``historyChunk``: a quiet process's history stays small.
                var chunk: [TraceEvent] = []
                chunk.reserveCapacity(min(Self.historyChunk, max(Self.firstHistoryChunk, historyCount)))
                history.append(chunk)
            }
            history[history.count - 1].append(event)
            historyCount += 1
        }

        /// The lines a recording starting now opens with; nil before any header.
        func prelude() -> [TraceEvent]? {
            guard var header else { return nil }
            // Re-based to now: mono and wall move together, so the mapping between them holds.
            if latest > header.clockMono {
                header.clockWall &+= latest - header.clockMono
                header.clockMono = latest
            }
            var lines: [TraceEvent] = [.header(header)]
            if historyIsComplete {
                var skippedHeader = false
                for event in history.joined() {
                    if case .header = event, !skippedHeader {
                        skippedHeader = true
                        continue
                    }
                    lines.append(event)
                }
                return lines
            }
            lines += definitions
            for registration in live.values.sorted(by: { $0.id < $1.id }) {
                var snapshot = registration
                snapshot.preexisting = true
                snapshot.registeredAt = registration.registrationTime
                snapshot.timestamp = max(registration.timestamp, latest)
                lines.append(.registered(snapshot))
                if droppedTokens.contains(registration.id) {
                    lines.append(
                        .tokenDropped(
                            TraceTokenDrop(
                                seq: snapshot.seq, timestamp: snapshot.timestamp, thread: snapshot.thread,
                                registration: registration.id)))
                }
            }
            return lines
        }

        /// A definition's kind and id: a later definition with the same key replaces it.
        struct DefinitionKey: Hashable {
            enum Kind: UInt8 { case thread, type, object, callsite }
            var kind: Kind
            var id: UInt64
        }

        private mutating func define(_ key: DefinitionKey, _ event: TraceEvent) {
            if let index = definitionIndex[key] {
                definitions[index] = event
            } else if definitions.count < maximumDefinitions {
                definitionIndex[key] = definitions.count
                definitions.append(event)
            }
        }
    }

    /// The file being written.
    package let path: String
    private let recorder: TraceRecorder
    private var buffer: [UInt8] = []
    /// The highest sequence number and the newest time written.
    private var lastSeq: UInt64 = 0
    private var latest: UInt64 = 0
    /// Whether an end line was written.
    private var hasEnd = false

    /// Creates `path` and writes the prelude; creates nothing when there is nothing to record yet.
    package init(path: String, memory: Memory) throws(TraceError) {
        self.path = path
        guard let prelude = memory.prelude() else { throw .invalid("nothing to record yet: no header received") }
        recorder = try TraceRecorder(path: path)
        for event in prelude { write(event) }
    }

    /// Appends one event.
    package mutating func write(_ event: TraceEvent) {
        if let seq = event.seq, seq > lastSeq { lastSeq = seq }
        if let time = event.timestamp, time > latest { latest = time }
        if case .end = event { hasEnd = true }
        buffer.removeAll(keepingCapacity: true)
        TraceEncoder.encode(event, into: &buffer)
        recorder.write(buffer)
    }

    /// Ends the file with an end line saying the user stopped recording, numbered and timed right
    /// after the last event, so a replay ends as stopped by the user rather than as cut off.
    /// Nothing is added after the stream's own end line.
    package mutating func writeUserStop() {
        guard !hasEnd else { return }
        // After a stream numbered up to 2^64 − 1 the end line shares its number: never a trap.
        write(.end(TraceEnd(seq: min(lastSeq, .max - 1) + 1, timestamp: latest, reason: .recordingStopped)))
    }

    /// Flushes what is buffered.
    package func flush() { recorder.flush() }

    /// Flushes what has waited a second: for a session with nothing new to write.
    package func flushIfDue() { recorder.flushIfDue() }

    /// The write error that stopped the recording; nil while all is well.
    package var failure: TraceError? { recorder.failure }

    /// One line on how the recording went: bytes in the file, and whether it is complete.
    package var outcome: String { recorder.outcome }

    /// Bytes in the file so far.
    package var byteCount: Int { recorder.bytesWritten }
}
