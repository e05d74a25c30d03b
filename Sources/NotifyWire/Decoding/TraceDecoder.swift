/// Reads ``TraceEvent``s from JSON Lines bytes that arrive in pieces of any size: a socket's
/// reads, a file's blocks, or a whole recording at once.
///
/// Feed bytes as they come, then call ``next()`` until it returns nil, which means "need more
/// bytes". The split points never change the result: one byte at a time or everything at once
/// gives the same events and the same errors. This is the shape of NIO's
/// `ByteToMessageDecoder`, without NIO.
///
/// ```swift
/// var decoder = TraceDecoder()
/// for chunk in chunks {
///     decoder.feed(chunk)
///     while true {
///         do {
///             guard let event = try decoder.next() else { break }
///             model.apply(event)
///         } catch let error as TraceDecodingError where !error.isFatal {
///             log("\(error)")  // that line is skipped; carry on
///         }
///     }
/// }
/// decoder.finish()
/// while let event = try decoder.next() { model.apply(event) }  // a final line with no newline
/// ```
///
/// A line longer than ``maximumLineLength`` is reported once and dropped as it streams past, so
/// a hostile or corrupt input cannot make the decoder hold more than one line's worth of bytes
/// (plus the chunk being fed). Decoding resumes after the next newline.
///
/// - Warning: A value type with no locks: use one decoder per stream, from one thread at a time.
public struct TraceDecoder: Sendable {
    /// The default ``maximumLineLength``: 1 MiB, far above any real line (a few hundred bytes).
    public static let defaultMaximumLineLength = 1 << 20

    /// Lines longer than this many bytes (newline excluded) are skipped with
    /// ``TraceDecodingError/Reason/lineTooLong(limit:)``.
    public let maximumLineLength: Int

    /// The most recent header read, or nil before the first one.
    public private(set) var header: TraceHeader?

    /// How many lines ``next()`` has consumed, blank and failed ones included: the number of the
    /// line it returned or threw about last.
    public private(set) var lineNumber = 0

    /// Bytes of the lines dropped for being longer than ``maximumLineLength`` (newlines excluded),
    /// counted as they stream past: what a reader reports as skipped.
    public private(set) var droppedByteCount = 0

    private enum LineEnd: UInt8 {
        /// A complete line; `end` is the absolute offset of its newline.
        case newline
        /// The input's last line, with no newline; `end` is the absolute offset just past it.
        case endOfInput
        /// A line over the limit, already dropped; `end` is unused.
        case oversized
    }

    private struct PendingLine {
        var end: Int
        var kind: LineEnd
    }

    /// Bytes of lines not yet consumed, then the partial line being received.
    private var storage: [UInt8] = []
    /// The absolute stream offset of `storage[0]`; grows as consumed bytes are discarded.
    private var base = 0
    /// Index in `storage` of the first byte of the next line to consume.
    private var readIndex = 0
    /// Absolute offset of the first byte after the last newline fed: where the partial line starts.
    private var partialStart = 0
    /// Lines found by `feed`, in order, that `next` has not consumed.
    private var pending: [PendingLine] = []
    private var pendingHead = 0
    /// True while dropping the rest of an oversized line, up to its newline.
    private var discarding = false
    private var finished = false
    /// Scratch for the scanner, reused from line to line.
    private var fields: [JSONField] = []
    /// Strings already made (notification names, mostly), reused when the same bytes come again.
    private var names = StringInterner()
    /// The summary of the event ``next(appendingTo:)`` appended last.
    public private(set) var lastSummary = TraceEventSummary(kind: nil, seq: nil, timestamp: nil)
    /// Where ``next()`` has its one event appended, reused from call to call.
    private var single: [TraceEvent] = []

    /// Creates a decoder.
    ///
    /// - Parameter maximumLineLength: The longest line accepted, in bytes, newline excluded.
    public init(maximumLineLength: Int = TraceDecoder.defaultMaximumLineLength) {
        precondition(maximumLineLength > 0, "maximumLineLength must be positive")
        self.maximumLineLength = maximumLineLength
    }

    /// How many bytes the decoder holds: unread complete lines plus the partial line.
    public var bufferedByteCount: Int { storage.count - readIndex }

    /// Takes more input. Never throws: problems surface, in stream order, from ``next()``.
    ///
    /// - Precondition: ``finish()`` has not been called.
    /// - Complexity: O(`bytes.count`).
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        precondition(!finished, "TraceDecoder.feed called after finish()")
        if bytes.withContiguousStorageIfAvailable({ feedContiguous($0) }) != nil { return }
        let copy = Array(bytes)
        copy.withUnsafeBufferPointer { feedContiguous($0) }
    }

    /// Declares the end of input. The bytes after the last newline, if any, become a final line
    /// for ``next()``: decoded if they form a whole line, else reported as
    /// ``TraceDecodingError/Reason/truncated(bytes:)``. Later calls do nothing.
    public mutating func finish() {
        guard !finished else { return }
        finished = true
        let end = base + storage.count
        if !discarding && end > partialStart {
            pending.append(PendingLine(end: end, kind: .endOfInput))
            partialStart = end
        }
    }

    /// The next event, or nil when no complete line is buffered (feed more, or ``finish()``).
    ///
    /// Blank lines are skipped. A line of a kind this version does not know is returned as
    /// ``TraceEvent/unknown(_:)``.
    ///
    /// - Throws: ``TraceDecodingError`` for a line that cannot be decoded; that line is consumed,
    ///   so the next call continues with the line after it.
    public mutating func next() throws(TraceDecodingError) -> TraceEvent? {
        var one: [TraceEvent] = []
        swap(&one, &single)
        defer {
            one.removeAll(keepingCapacity: true)
            swap(&one, &single)
        }
        guard try next(appendingTo: &one) else { return nil }
        return one.removeLast()
    }

    /// Decodes the next line onto the end of `events`, as ``next()`` would return it; false when
    /// no complete line is buffered. A reader of many lines appends them where they are kept, so
    /// no event is moved on the way.
    ///
    /// - Throws: ``TraceDecodingError`` as ``next()`` does; nothing is appended then.
    public mutating func next(appendingTo events: inout [TraceEvent]) throws(TraceDecodingError) -> Bool {
        while pendingHead < pending.count {
            let entry = pending[pendingHead]
            pendingHead += 1
            lineNumber += 1
            if entry.kind == .oversized {
                throw TraceDecodingError(line: lineNumber, reason: .lineTooLong(limit: maximumLineLength))
            }
            let start = readIndex
            let end = entry.end - base
            readIndex = entry.kind == .newline ? end + 1 : end
            if try decodeLine(from: start, to: end, atEndOfInput: entry.kind == .endOfInput, appendingTo: &events) {
                return true
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingHead = 0
        return false
    }

    /// Appends the line's event to `events`; false for a blank line.
    private mutating func decodeLine(
        from start: Int, to end: Int, atEndOfInput: Bool, appendingTo events: inout [TraceEvent]
    ) throws(TraceDecodingError) -> Bool {
        var scratch: [JSONField] = []
        swap(&scratch, &fields)
        var strings = StringInterner()
        swap(&strings, &names)
        defer {
            swap(&scratch, &fields)
            swap(&strings, &names)
        }
        let lineNumber = self.lineNumber
        var summary = lastSummary
        var appended = false
        let failure = storage.withUnsafeBufferPointer { buffer -> TraceDecodingError? in
            let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
            do throws(TraceDecodingError) {
                appended = try TraceLineDecoder.decode(
                    line, lineNumber: lineNumber, fields: &scratch, names: &strings, appendingTo: &events,
                    summary: &summary)
                return nil
            } catch {
                if atEndOfInput, case .malformed = error.reason {
                    return TraceDecodingError(line: lineNumber, reason: .truncated(bytes: line.count))
                }
                return error
            }
        }
        if let failure { throw failure }
        guard appended else { return false }
        lastSummary = summary
        if summary.kind == .header, case .header(let header) = events[events.count - 1] { self.header = header }
        return true
    }

    private mutating func feedContiguous(_ chunk: UnsafeBufferPointer<UInt8>) {
        compact()
        var position = 0
        // Whole lines are not appended one by one: `chunk[copyStart..<position]` is copied in one
        // go when an oversized line interrupts the run or the chunk ends.
        var copyStart = 0
        while position < chunk.count {
            if discarding {
                guard let newline = Self.newline(in: chunk, from: position) else {
                    droppedByteCount += chunk.count - position
                    return
                }
                droppedByteCount += newline - position
                discarding = false
                position = newline + 1
                copyStart = position
                partialStart = base + storage.count
                continue
            }
            // Absolute offset `chunk[position]` will have once the pending run is copied.
            let absolute = base + storage.count + (position - copyStart)
            let partialLength = absolute - partialStart
            guard let newline = Self.newline(in: chunk, from: position) else {
                if partialLength + (chunk.count - position) > maximumLineLength {
                    storage.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[copyStart..<position]))
                    dropPartialLine(partialLength)
                    droppedByteCount += chunk.count - position
                    discarding = true
                    return
                }
                break
            }
            if partialLength + (newline - position) > maximumLineLength {
                storage.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[copyStart..<position]))
                dropPartialLine(partialLength)
                droppedByteCount += newline - position
                copyStart = newline + 1
                partialStart = base + storage.count
            } else {
                let newlineOffset = absolute + (newline - position)
                pending.append(PendingLine(end: newlineOffset, kind: .newline))
                partialStart = newlineOffset + 1
            }
            position = newline + 1
        }
        storage.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[copyStart...]))
    }

    /// Forgets the buffered start of an oversized line and queues its error in stream order.
    private mutating func dropPartialLine(_ length: Int) {
        droppedByteCount += length
        storage.removeLast(length)
        pending.append(PendingLine(end: base + storage.count, kind: .oversized))
    }

    /// Discards consumed bytes: all of them when nothing is left, or when they are the larger part
    /// of a big buffer, so memory stays proportional to what is unread.
    private mutating func compact() {
        guard readIndex > 0 else { return }
        if readIndex == storage.count {
            storage.removeAll(keepingCapacity: true)
        } else if readIndex >= 64 * 1024 && readIndex >= storage.count / 2 {
            storage.removeSubrange(0..<readIndex)
        } else {
            return
        }
        base += readIndex
        readIndex = 0
    }

    /// The index of the first `\n` at or after `start`: eight bytes at a time, then byte by byte.
    @inline(__always)
    private static func newline(in chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = chunk.baseAddress else { return nil }
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= chunk.count {
            // A zero byte in `word ^ "\n\n…"` marks a newline (the classic has-zero-byte test).
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ (ones &* 0x0A)
            let found = (word &- ones) & ~word & highs
            if found != 0 {
                return index + found.trailingZeroBitCount / 8
            }
            index += 8
        }
        while index < chunk.count {
            if chunk[index] == 0x0A { return index }
            index += 1
        }
        return nil
    }
}
