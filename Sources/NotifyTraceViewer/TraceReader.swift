import Foundation
public import NotifyWire
@_exported public import NotifySystem

/// Reads trace events from a live socket or a recorded file: one code path for both, so a replay
/// reproduces what a live session showed.
///
/// The first line must be a header of a supported major version: anything else is not a trace,
/// and ends the stream with a message naming the origin and the line (``open(file:strict:)``
/// checks this before returning). Later malformed lines are reported with the origin (file or
/// socket), line number and what was wrong, then skipped and counted, unless `strict` is set. A
/// recording cut off mid-line is read up to its last whole line. Numbers missing from `seq` that
/// no gap line reported arrive, at the end, as one synthesized gap (`TraceGapReason.unaccounted`).
public final class TraceReader {
    /// Where the bytes come from.
    package enum Source {
        /// A connected viewer socket.
        case socket(UnixSocket)
        /// A readable file descriptor (a recording); closed with the reader.
        case file(Int32)
    }

    /// What one read produced.
    public enum Output: Sendable, Equatable {
        /// The next event.
        case event(TraceEvent)
        /// Nothing arrived within the timeout (live sources only).
        case idle
        /// The stream is over; no more events will come.
        case ended(TraceStreamEnd)
    }

    /// The file path or socket path, for messages.
    public let origin: String
    /// Stop at the first malformed line instead of skipping it.
    public let strict: Bool
    /// Receives every byte read, exactly as received, a line once its newline is read (the rest
    /// when the stream ends): a recording of the session, including what ``open(file:strict:)``
    /// read ahead before the recorder was set.
    public var recorder: TraceRecorder? {
        didSet {
            if let readAheadBytes { record(readAheadBytes[...]) }
            readAheadBytes = nil
        }
    }
    /// Bytes received so far, so the thread reading can tell a trickle from a flood (see LiveFeed).
    public private(set) var byteCount = 0
    /// Lines skipped so far: malformed, over-long, or repeating an event's number.
    public private(set) var malformedLines = 0
    /// The line number of the first malformed line skipped.
    public private(set) var firstMalformedLine: Int?
    /// Called with a one-line message for each malformed line that is skipped.
    public var onMalformedLine: ((String) -> Void)?

    private let source: Source
    private var decoder = TraceDecoder()
    /// Large enough to take everything a socket holds in one read.
    /// Left uninitialized: a quiet stream's reads touch only the pages they fill.
    private var buffer = [UInt8](unsafeUninitializedCapacity: 256 * 1024) { _, count in count = 256 * 1024 }
    private var sawEndLine: TraceEnd?
    private var finishedInput = false
    private var ended: TraceStreamEnd?
    /// Whether the first line (the header) has been read.
    private var sawFirstLine = false
    /// The header, read ahead by ``open(file:strict:)`` and not yet returned.
    private var readAhead: TraceEvent?
    /// Where ``next(timeoutMilliseconds:)`` has its one event appended, reused from call to call.
    private var single: [TraceEvent] = []
    /// The bytes read while checking the header, until a recorder takes them or reading goes on.
    private var readAheadBytes: [UInt8]?
    private var readingAhead = false
    private var holes = SequenceHoles()
    /// The last number of a line whose numbers must increase (see ``numbersIncrease(_:)``).
    private var lastEventSeq: UInt64?
    private var reportedHoles = false
    /// Bytes since the last newline, to give up on input that has no lines at all.
    private var bytesSinceNewline = 0
    /// The bytes read after the last newline, not yet given to the recorder.
    private var unrecordedLine: [UInt8] = []
    /// The highest number and the latest time of the lines decoded, for the end line of a
    /// recording the user stops.
    private var newestSeq: UInt64 = 0
    private var newestTime: UInt64 = 0

    package init(source: Source, origin: String, strict: Bool = false) {
        self.source = source
        self.origin = origin
        self.strict = strict
    }

    deinit {
        if case .file(let fd) = source { close(fd) }
    }

    /// The most bytes a live stream (or a file before its header) may send without a newline
    /// before it is given up as not JSON Lines: far above the decoder's longest line, which it
    /// already skips. A recording goes on past such a stretch (a crash can leave a run of NUL
    /// bytes): the decoder drops it as it streams past and reading resumes at the next line end.
    package static let maximumBytesWithoutNewline = 16 * TraceDecoder.defaultMaximumLineLength

    /// Opens a recording: a regular file whose first line is a trace header.
    ///
    /// FIFOs, devices and directories are refused before anything could block; a file that is
    /// empty or does not start with a valid header of a supported version is refused with the
    /// first bad line.
    public static func open(file path: String, strict: Bool = false) throws(TraceError) -> TraceReader {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .system("cannot open \(path)", errno) }
        if let kind = fileKind(info.st_mode) { throw .invalid("\(path): is \(kind), not a recording (a regular file)") }
        // O_NONBLOCK: a FIFO swapped in after the check must not block the open.
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .system("cannot open \(path)", errno) }
        guard fstat(fd, &info) == 0, fileKind(info.st_mode) == nil else {
            close(fd)
            throw .invalid("\(path): not a regular file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let reader = TraceReader(source: .file(fd), origin: path, strict: strict)
        reader.readAheadBytes = []
        reader.readingAhead = true
        defer { reader.readingAhead = false }
        switch reader.next() {
        case .event(let header): reader.readAhead = header
        case .ended(.failed(let message)): throw .invalid(message)
        case .ended, .idle: throw .invalid("\(path): not a notifytop trace (no header line)")
        }
        return reader
    }

    /// The `k` a line has, for messages.
    static func kindName(_ event: TraceEvent) -> String {
        if case .unknown(let line) = event { return line.kind }
        return event.kind?.rawValue ?? "?"
    }

    /// What a file that is not regular is, for messages; nil for a regular file.
    static func fileKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// Connects to a live process's socket.
    public static func connect(socketPath: String) throws(TraceError) -> TraceReader {
        TraceReader(source: .socket(try UnixSocket.connect(to: socketPath)), origin: socketPath)
    }

    /// The stream's header, once read.
    public var header: TraceHeader? { decoder.header }

    /// Returns the next event, waiting at most `timeoutMilliseconds` for a live source.
    public func next(timeoutMilliseconds: Int32 = -1) -> Output {
        defer { single.removeAll(keepingCapacity: true) }
        switch next(appendingTo: &single, limit: 1, timeoutMilliseconds: timeoutMilliseconds) {
        case .events: return .event(single.removeLast())
        case .idle: return .idle
        case .ended(let end): return .ended(end)
        }
    }

    /// What one batched read produced.
    public enum BatchOutput: Sendable, Equatable {
        /// This many events were appended (at least one).
        case events(Int)
        /// Nothing arrived within the timeout (live sources only); nothing was appended.
        case idle
        /// The stream is over; nothing was appended, and no more events will come.
        case ended(TraceStreamEnd)
    }

    /// Appends up to `limit` events to `events`: those the decoder already holds, then what one
    /// read brings, waiting at most `timeoutMilliseconds` for a live source only while none was
    /// appended. The same events as ``next(timeoutMilliseconds:)`` one by one, decoded where they
    /// are kept.
    public func next(appendingTo events: inout [TraceEvent], limit: Int, timeoutMilliseconds: Int32 = -1)
        -> BatchOutput
    {
        if let ended { return .ended(ended) }
        var appended = 0
        var skippedNow = 0
        if let event = readAhead {
            readAhead = nil
            events.append(event)
            appended += 1
        }
        while appended < limit {
            do {
                if try decoder.next(appendingTo: &events) {
                    let index = events.count - 1
                    let summary = decoder.lastSummary
                    noteNewest(summary)
                    if !sawFirstLine {
                        sawFirstLine = true
                        guard case .header = events[index] else {
                            let kind = Self.kindName(events.removeLast())
                            return finish(
                                .failed(
                                    "\(origin): not a notifytop trace: line \(decoder.lineNumber) is a "
                                        + "\"\(kind)\" line, not a header"),
                                appended: appended)
                        }
                    } else if summary.kind == .header {
                        // Another stream's start (files put end to end): its ids and clock are not
                        // this stream's, so it is not folded into it.
                        events.removeLast()
                        return finish(
                            .failed(
                                "\(origin): line \(decoder.lineNumber): a second header, so another stream begins "
                                    + "here; read up to it (split the file to read the rest)"),
                            appended: appended)
                    }
                    if let seq = summary.seq, Self.numbersIncrease(summary.kind) {
                        if let last = lastEventSeq, seq <= last {
                            // A line read twice (a copy, a retried write) would count twice.
                            events.removeLast()
                            skip(
                                line: decoder.lineNumber,
                                "line \(decoder.lineNumber): seq \(seq) after \(last): a repeated or out-of-order line")
                            skippedNow += 1
                            if appended > 0 || skippedNow >= Self.skipsPerCall { return handOver(appended) }
                            continue
                        }
                        lastEventSeq = seq
                    }
                    // From the decoder's summary: the event itself is read only for the rare
                    // lines whose fields matter (gaps, snapshots, the end).
                    holes.observe(summary) { events[index] }
                    if summary.kind == .end, case .end(let end) = events[index] {
                        sawEndLine = end
                        // The producer closes the connection after its end line, maybe much later
                        // (it flushes other viewers first): the stream is over now. A file is read
                        // to its end, so nothing after the line goes unreported.
                        if case .socket = source { finishedInput = true }
                    }
                    appended += 1
                    continue
                }
            } catch {
                if !sawFirstLine {
                    return finish(.failed("\(origin): not a notifytop trace: \(error)"), appended: appended)
                }
                if error.isFatal || strict {
                    return finish(.failed("\(origin): \(error)"), appended: appended)
                }
                skip(line: error.line, "\(error)")
                skippedNow += 1
                if appended > 0 || skippedNow >= Self.skipsPerCall { return handOver(appended) }
                continue
            }
            if bytesSinceNewline > Self.maximumBytesWithoutNewline, givesUpWithoutNewline {
                return finish(
                    .failed(
                        "\(origin): line \(decoder.lineNumber + 1): no line end in "
                            + "\(Self.maximumBytesWithoutNewline) bytes; not a JSON Lines trace"),
                    appended: appended)
            }
            if finishedInput {
                if !sawFirstLine, case .file = source {
                    return finish(.failed("\(origin): empty file, not a notifytop trace"), appended: appended)
                }
                if !reportedHoles, let gap = holes.synthesizedGap() {
                    reportedHoles = true
                    events.append(gap)
                    appended += 1
                    continue
                }
                return finish(endReason(), appended: appended)
            }
            switch read(timeoutMilliseconds: appended > 0 ? 0 : timeoutMilliseconds) {
            case .bytes: continue
            case .idle: return appended > 0 ? .events(appended) : .idle
            case .closed:
                decoder.finish()
                finishedInput = true
            }
        }
        return .events(appended)
    }

    /// Lines skipped in one call before it returns: a stream of nothing but undecodable lines
    /// still hands over what came before them, and lets its reader look up (to stop, to report).
    package static let skipsPerCall = 256

    /// What a call that skipped a line returns: the events appended so far, or idle for none.
    private func handOver(_ appended: Int) -> BatchOutput {
        appended > 0 ? .events(appended) : .idle
    }

    /// Counts and reports one line skipped.
    private func skip(line: Int, _ message: String) {
        malformedLines += 1
        if firstMalformedLine == nil { firstMalformedLine = line }
        onMalformedLine?("\(origin): \(message)")
    }

    /// Kinds whose numbers strictly increase within a stream: each is an event counted once.
    /// Snapshot and prelude lines (threads, registrations, dropped tokens) may repeat numbers
    /// from before the stream, and a gap carries the number of the last event it counts.
    private static func numbersIncrease(_ kind: TraceLineKind?) -> Bool {
        switch kind {
        case .posted, .delivered, .removed, .enqueued, .queue, .removeMissed, .tick: true
        default: false
        }
    }

    /// A recording resynchronises at the next line end once its header is read; a live stream or
    /// a file with no header yet is given up.
    private var givesUpWithoutNewline: Bool {
        if case .file = source { return !sawFirstLine }
        return true
    }

    private enum ReadResult { case bytes, idle, closed }

    private func read(timeoutMilliseconds: Int32) -> ReadResult {
        let count: Int?
        switch source {
        case .socket(let socket):
            count = buffer.withUnsafeMutableBytes { socket.read(into: $0, timeoutMilliseconds: timeoutMilliseconds) }
            if count == 0 {
                // Nothing to read: the moment to put a recording's waiting bytes on disk.
                recorder?.flushIfDue()
                return .idle
            }
        case .file(let fd):
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            count = n > 0 ? n : nil
        }
        guard let count else { return .closed }
        let bytes = buffer[0..<count]
        byteCount += count
        // From the end: a trace's last newline is a few hundred bytes back at most.
        bytesSinceNewline = bytes.lastIndex(of: 0x0A).map { count - $0 - 1 } ?? bytesSinceNewline + count
        record(bytes)
        if readingAhead { readAheadBytes?.append(contentsOf: bytes) } else { readAheadBytes = nil }
        decoder.feed(bytes)
        return .bytes
    }

    private func endReason() -> TraceStreamEnd {
        if let sawEndLine {
            switch sawEndLine.reason {
            case .processExit: return .processExited
            case .disconnected: return .cutOff(sawEndLine)
            default: return .producerStopped(sawEndLine.reason.rawValue)
            }
        }
        if case .file = source { return .endOfFile }
        return .disconnected
    }

    /// Bytes of over-long lines dropped so far (newlines excluded).
    public var skippedBytes: Int { decoder.droppedByteCount }

    /// "3 lines skipped (first at line 101)" once malformed lines were skipped, with the bytes
    /// when over-long lines were among them ("…; 20971520 bytes"); nil before.
    public var skippedLines: String? {
        guard let firstMalformedLine else { return nil }
        let lines = "\(malformedLines) line\(malformedLines == 1 ? "" : "s")"
        let bytes = skippedBytes > 0 ? "; \(skippedBytes) bytes of over-long lines" : ""
        return "\(lines) skipped (first at line \(firstMalformedLine)\(bytes))"
    }

    /// Gives the recorder the bytes up to the last newline among them; holds back the rest.
    private func record(_ bytes: ArraySlice<UInt8>) {
        guard let recorder else { return }
        guard let newline = bytes.lastIndex(of: 0x0A) else {
            unrecordedLine.append(contentsOf: bytes)
            // A line this long is skipped by every reader: recorded as it comes, not held.
            if unrecordedLine.count > Self.maximumBytesWithoutNewline {
                recorder.write(unrecordedLine)
                unrecordedLine.removeAll()
            }
            return
        }
        if !unrecordedLine.isEmpty {
            recorder.write(unrecordedLine)
            unrecordedLine.removeAll(keepingCapacity: true)
        }
        recorder.write(bytes[...newline])
        unrecordedLine.append(contentsOf: bytes[(newline + 1)...])
    }

    private func noteNewest(_ summary: TraceEventSummary) {
        if let seq = summary.seq, seq > newestSeq { newestSeq = seq }
        if let time = summary.timestamp, time > newestTime { newestTime = time }
    }

    /// Ends the recording of a stream that goes on, which the user stopped: after the last whole
    /// line read, an end line saying so, numbered and timed after every line recorded, so a replay
    /// ends as stopped by the user rather than as cut off. A line whose newline was not read yet
    /// is left out. Does nothing after the stream's own end.
    public func endRecordingStoppedByUser() {
        guard let recorder, ended == nil, sawEndLine == nil else { return }
        // The lines read but not yet decoded are in the recording: their numbers count too.
        var rest: [TraceEvent] = []
        while (try? decoder.next(appendingTo: &rest)) != false {
            noteNewest(decoder.lastSummary)
            rest.removeAll(keepingCapacity: true)
        }
        unrecordedLine.removeAll()
        var line: [UInt8] = []
        // After a stream numbered up to 2^64 − 1 the end line shares its number: never a trap.
        let end = TraceEnd(seq: min(newestSeq, .max - 1) + 1, timestamp: newestTime, reason: .recordingStopped)
        TraceEncoder.encode(.end(end), into: &line)
        recorder.write(line)
        recorder.flush()
    }

    /// Ends the stream; events appended before the end go out first, and the end with the next call.
    private func finish(_ end: TraceStreamEnd, appended: Int) -> BatchOutput {
        ended = end
        if !unrecordedLine.isEmpty {
            recorder?.write(unrecordedLine)
            unrecordedLine.removeAll()
        }
        recorder?.flush()
        return appended > 0 ? .events(appended) : .ended(end)
    }
}

/// How a trace stream ended.
public enum TraceStreamEnd: Sendable, Equatable, CustomStringConvertible {
    /// The inspected process exited (it said so in its last line).
    case processExited
    /// The producer ended the stream for another reason (its inspector was stopped).
    case producerStopped(String)
    /// The producer cut this reader off for falling behind; the process goes on. Its end line
    /// says how far behind, when the producer tells.
    case cutOff(TraceEnd)
    /// The connection closed without an end line: the process was killed or crashed, or it closed
    /// the connection while this reader could not take the end line (see `TraceEnd`). Only the
    /// process itself tells which.
    case disconnected
    /// A recording was read to its end, which has no end line: it was cut off.
    case endOfFile
    /// Reading cannot go on: an unknown major version, or a malformed line in strict mode.
    case failed(String)

    public var description: String {
        switch self {
        case .processExited: "process exited"
        case .producerStopped(let reason) where reason == TraceEndReason.recordingStopped.rawValue:
            "recording stopped by the user"
        case .producerStopped(let reason): "stream stopped by the process (\(reason))"
        case .cutOff(let end): "cut off by the process for reading too slowly" + Self.lag(end)
        case .disconnected: "connection lost without an end line"
        case .endOfFile: "recording cut off: no end line"
        case .failed(let message): message
        }
    }

    /// ": 5.2 s behind, 48211 events lost, 6.0 MiB queued", as far as the end line says.
    private static func lag(_ end: TraceEnd) -> String {
        var parts: [String] = []
        if let behind = end.behindNanoseconds {
            parts.append("\((Double(behind) / 1e8).rounded() / 10) s behind")
        }
        if let missed = end.missedEvents { parts.append("\(missed) event\(missed == 1 ? "" : "s") lost") }
        if let bytes = end.queuedBytes { parts.append(byteText(bytes) + " queued") }
        return parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")
    }

    private static func byteText(_ bytes: UInt64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let kib = Double(bytes) / 1024
        if kib < 1024 { return "\((kib * 10).rounded() / 10) KiB" }
        return "\((kib / 1024 * 10).rounded() / 10) MiB"
    }
}
