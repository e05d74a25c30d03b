/// The live stream's hot lines written from their fields, for an exporter that encodes straight
/// from its records: the bytes are exactly those ``TraceEncoder/encode(_:into:)`` writes for the
/// same ``TracePost``, ``TraceDelivery`` or ``TraceMessageEnqueue``.
extension TraceEncoder {
    /// Appends `string` quoted and escaped as a line writes it: a name's bytes, kept by a caller
    /// that writes the same name again and again.
    package static func appendQuoted(_ string: String, into buffer: inout [UInt8]) {
        buffer.appendJSONString(string)
    }

    /// The most bytes a `posted`, `delivered` or `enqueued` line written from its fields takes,
    /// with a quoted name of `quotedNameBytes`.
    @inline(__always)
    package static func hotLineBound(quotedNameBytes: Int) -> Int { hotLineFixedBytes + quotedNameBytes }

    /// Writes a `posted` line at `start`, which has room for ``hotLineBound(quotedNameBytes:)``
    /// bytes, and returns the bytes written.
    @inline(__always)
    package static func writePosted(
        seq: UInt64, timestamp: UInt64, thread: UInt64, postID: UInt64, quotedName: UnsafeBufferPointer<UInt8>,
        object: UInt64?, hasUserInfo: Bool, matched: Int, depth: Int, parentPostID: UInt64, callsite: UInt64,
        message: TraceMessageKind?, center: UInt32? = nil, to start: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var line = LineWriter(start)
        writePosted(
            seq: seq, timestamp: timestamp, thread: thread, postID: postID, name: { $0.appendBytes(quotedName) },
            object: object, hasUserInfo: hasUserInfo, matched: matched, depth: depth, parentPostID: parentPostID,
            callsite: callsite, message: message, center: center, into: &line)
        return line.count
    }

    /// Writes a `delivered` line at `start`, which has room for ``hotLineBound(quotedNameBytes:)``
    /// bytes, and returns the bytes written.
    @inline(__always)
    package static func writeDelivered(
        seq: UInt64, timestamp: UInt64, thread: UInt64, postID: UInt64, registration: UInt64,
        quotedName: UnsafeBufferPointer<UInt8>, postingThread: UInt64, target: TraceTargetKind, start: UInt64,
        duration: UInt64, wait: UInt64, depth: Int, to lineStart: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var line = LineWriter(lineStart)
        writeDelivered(
            seq: seq, timestamp: timestamp, thread: thread, postID: postID, registration: registration,
            name: { $0.appendBytes(quotedName) }, postingThread: postingThread, target: target, start: start,
            duration: duration, wait: wait, depth: depth, into: &line)
        return line.count
    }

    /// Writes an `enqueued` line at `start`, which has room for ``hotLineBound(quotedNameBytes:)``
    /// bytes (no name), and returns the bytes written.
    @inline(__always)
    package static func writeEnqueued(
        seq: UInt64, timestamp: UInt64, thread: UInt64, postID: UInt64, registration: UInt64, pending: Int,
        droppedOldest: Bool, to start: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var line = LineWriter(start)
        writeEnqueued(
            seq: seq, timestamp: timestamp, thread: thread, postID: postID, registration: registration,
            pending: pending, droppedOldest: droppedOldest, into: &line)
        return line.count
    }

    // The one layout of each hot line, for the general encoder (which escapes the name as it
    // writes it) and for the writers above (which copy a name quoted before).

    @inline(__always)
    static func writePosted(
        seq: UInt64, timestamp: UInt64, thread: UInt64, postID: UInt64, name writeName: (inout LineWriter) -> Void,
        object: UInt64?, hasUserInfo: Bool, matched: Int, depth: Int, parentPostID: UInt64, callsite: UInt64,
        message: TraceMessageKind?, center: UInt32?, into line: inout LineWriter
    ) {
        stamp(.posted, seq, timestamp, thread, into: &line)
        line.appendKey(.postID)
        line.appendDecimal(postID)
        line.appendKey(.name)
        writeName(&line)
        line.appendKey(.object)
        line.appendOptionalDecimal(object)
        line.appendKey(.hasUserInfo)
        line.appendBool(hasUserInfo)
        line.appendKey(.matched)
        line.appendDecimal(matched)
        line.appendKey(.depth)
        line.appendDecimal(depth)
        line.appendKey(.parentPostID)
        line.appendDecimal(parentPostID)
        line.appendKey(.callsite)
        line.appendDecimal(callsite)
        if let message {
            // Only typed messages carry it, so a notification's line is the same as in 1.1.
            line.appendKey(.message)
            line.appendLiteral(message.quoted)
        }
        if let center {
            // Only a stream of several centers carries it, so a one-center line reads as in 1.4.
            line.appendKey(.center)
            line.appendDecimal(UInt64(center))
        }
        line.appendLiteral("}\n")
    }

    @inline(__always)
    static func writeDelivered(
        seq: UInt64, timestamp: UInt64, thread: UInt64, postID: UInt64, registration: UInt64,
        name writeName: (inout LineWriter) -> Void, postingThread: UInt64, target: TraceTargetKind, start: UInt64,
        duration: UInt64, wait: UInt64, depth: Int, into line: inout LineWriter
    ) {
        stamp(.delivered, seq, timestamp, thread, into: &line)
        line.appendKey(.postID)
        line.appendDecimal(postID)
        line.appendKey(.registration)
        line.appendDecimal(registration)
        line.appendKey(.name)
        writeName(&line)
        line.appendKey(.postingThread)
        line.appendDecimal(postingThread)
        line.appendKey(.target)
        line.appendLiteral(target.quoted)
        line.appendKey(.start)
        line.appendDecimal(start)
        line.appendKey(.duration)
        line.appendDecimal(duration)
        line.appendKey(.wait)
        line.appendDecimal(wait)
        line.appendKey(.depth)
        line.appendDecimal(depth)
        line.appendLiteral("}\n")
    }

    @inline(__always)
    static func writeEnqueued(
        seq: UInt64, timestamp: UInt64, thread: UInt64, postID: UInt64, registration: UInt64, pending: Int,
        droppedOldest: Bool, into line: inout LineWriter
    ) {
        stamp(.enqueued, seq, timestamp, thread, into: &line)
        line.appendKey(.postID)
        line.appendDecimal(postID)
        line.appendKey(.registration)
        line.appendDecimal(registration)
        line.appendKey(.pending)
        line.appendDecimal(pending)
        line.appendKey(.droppedOldest)
        line.appendBool(droppedOldest)
        line.appendLiteral("}\n")
    }
}

extension LineWriter {
    /// Appends bytes already encoded, such as a quoted name.
    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        appendRaw(base, count: bytes.count)
    }
}

extension TraceTargetKind {
    /// The raw value as a line writes it, quoted: no escaping needed, so none is done per line.
    var quoted: StaticString {
        switch self {
        case .posting: "\"posting\""
        case .operationQueue: "\"operation-queue\""
        case .dispatchQueue: "\"dispatch-queue\""
        case .thread: "\"thread\""
        case .main: "\"main\""
        case .task: "\"task\""
        }
    }
}

extension TraceMessageKind {
    /// The raw value as a line writes it, quoted.
    var quoted: StaticString {
        switch self {
        case .mainActor: "\"main\""
        case .async: "\"async\""
        }
    }
}
