import Foundation
import NotifyEvents

/// Reads trace events from a live socket or a recorded file: one code path for both, so a replay
/// reproduces what a live session showed.
///
/// Malformed lines are reported with the origin (file or socket), line number and what was wrong,
/// then skipped and counted, unless `strict` is set. A header of an unknown major version ends the
/// stream with a clear message. A recording cut off mid-line is read up to its last whole line.
public final class TraceReader {
    /// Where the bytes come from.
    public enum Source {
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
    /// Receives every byte read, exactly as received: a recording of the session.
    public var recorder: TraceRecorder?
    /// Bytes received so far, so the thread reading can tell a trickle from a flood (see LiveFeed).
    public private(set) var byteCount = 0
    /// Malformed lines skipped so far.
    public private(set) var malformedLines = 0
    /// Called with a one-line message for each malformed line that is skipped.
    public var onMalformedLine: ((String) -> Void)?

    private let source: Source
    private var decoder = TraceDecoder()
    /// Large enough to take everything a socket holds in one read.
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var sawEndLine: TraceEnd?
    private var finishedInput = false
    private var ended: TraceStreamEnd?

    public init(source: Source, origin: String, strict: Bool = false) {
        self.source = source
        self.origin = origin
        self.strict = strict
    }

    deinit {
        if case .file(let fd) = source { close(fd) }
    }

    /// Opens a recording.
    public static func open(file path: String, strict: Bool = false) throws(TraceError) -> TraceReader {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .system("cannot open \(path)", errno) }
        return TraceReader(source: .file(fd), origin: path, strict: strict)
    }

    /// Connects to a live process's socket.
    public static func connect(socketPath: String) throws(TraceError) -> TraceReader {
        TraceReader(source: .socket(try UnixSocket.connect(to: socketPath)), origin: socketPath)
    }

    /// The stream's header, once read.
    public var header: TraceHeader? { decoder.header }

    /// Returns the next event, waiting at most `timeoutMilliseconds` for a live source.
    public func next(timeoutMilliseconds: Int32 = -1) -> Output {
        if let ended { return .ended(ended) }
        while true {
            do {
                if let event = try decoder.next() {
                    if case .end(let end) = event { sawEndLine = end }
                    return .event(event)
                }
            } catch {
                if error.isFatal || strict {
                    return finish(.failed("\(origin): \(error)"))
                }
                malformedLines += 1
                onMalformedLine?("\(origin): \(error)")
                continue
            }
            if finishedInput {
                return finish(endReason())
            }
            switch read(timeoutMilliseconds: timeoutMilliseconds) {
            case .bytes: continue
            case .idle: return .idle
            case .closed:
                decoder.finish()
                finishedInput = true
            }
        }
    }

    private enum ReadResult { case bytes, idle, closed }

    private func read(timeoutMilliseconds: Int32) -> ReadResult {
        let count: Int?
        switch source {
        case .socket(let socket):
            count = buffer.withUnsafeMutableBytes { socket.read(into: $0, timeoutMilliseconds: timeoutMilliseconds) }
            if count == 0 { return .idle }
        case .file(let fd):
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            count = n > 0 ? n : nil
        }
        guard let count else { return .closed }
        let bytes = buffer[0..<count]
        byteCount += count
        recorder?.write(bytes)
        decoder.feed(bytes)
        return .bytes
    }

    private func endReason() -> TraceStreamEnd {
        if let sawEndLine {
            return sawEndLine.reason == .processExit ? .processExited : .producerStopped(sawEndLine.reason.rawValue)
        }
        if case .file = source { return .endOfFile }
        return .disconnected
    }

    private func finish(_ end: TraceStreamEnd) -> Output {
        ended = end
        recorder?.flush()
        return .ended(end)
    }
}

/// How a trace stream ended.
public enum TraceStreamEnd: Sendable, Equatable, CustomStringConvertible {
    /// The inspected process exited (it said so in its last line).
    case processExited
    /// The producer ended the stream for another reason (its inspector was stopped).
    case producerStopped(String)
    /// The connection closed without an end line: the process was killed or crashed.
    case disconnected
    /// A recording was read to its end.
    case endOfFile
    /// Reading cannot go on: an unknown major version, or a malformed line in strict mode.
    case failed(String)

    public var description: String {
        switch self {
        case .processExited: "process exited"
        case .producerStopped(let reason): "stream stopped by the process (\(reason))"
        case .disconnected: "connection lost (process killed or crashed)"
        case .endOfFile: "end of recording"
        case .failed(let message): message
        }
    }
}
