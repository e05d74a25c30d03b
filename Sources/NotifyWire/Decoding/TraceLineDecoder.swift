/// Turns one line's bytes into a ``TraceEvent``: scans the JSON, dispatches on `k`, reads fields.
enum TraceLineDecoder {
    /// Decodes `line` (no newline) onto the end of `events` and sets `summary` to the event's
    /// summary; false, appending nothing, for a blank line. The fast path builds the event where it
    /// is kept; the general one returns it as a value first.
    ///
    /// - Parameters:
    ///   - fields: Scratch storage, reused from line to line.
    ///   - names: Strings made for earlier lines, reused when the same bytes come again.
    static func decode(
        _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, fields: inout [JSONField], names: inout StringInterner,
        appendingTo events: inout [TraceEvent], summary: inout TraceEventSummary
    ) throws(TraceDecodingError) -> Bool {
        if withUnsafeMutablePointer(
            to: &names, { CanonicalLineDecoder.decode(line, names: $0, appendingTo: &events, summary: &summary) })
        {
            return true
        }
        guard let event = try decodeScanned(line, lineNumber: lineNumber, fields: &fields, names: &names) else {
            return false
        }
        summary = TraceEventSummary(event)
        events.append(event)
        return true
    }

    /// The general path: any valid line, and the error for any other. ``decode(_:lineNumber:fields:names:)``
    /// takes it for every line the fast path (``CanonicalLineDecoder``) does not read.
    static func decodeScanned(
        _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, fields: inout [JSONField], names: inout StringInterner
    ) throws(TraceDecodingError) -> TraceEvent? {
        do {
            guard try JSONObjectScanner.scan(line, into: &fields) else { return nil }
        } catch {
            throw TraceDecodingError(
                line: lineNumber, reason: .malformed(column: error.offset + 1, problem: error.problem))
        }
        return try fields.withUnsafeBufferPointer { fields throws(TraceDecodingError) in
            try withUnsafeMutablePointer(to: &names) { names throws(TraceDecodingError) in
                try decode(line, lineNumber: lineNumber, fields: fields, names: names)
            }
        }
    }

    private static func decode(
        _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, fields: UnsafeBufferPointer<JSONField>,
        names: UnsafeMutablePointer<StringInterner>
    ) throws(TraceDecodingError) -> TraceEvent {
        // The encoder writes "k" first; any other position works too.
        let kindIndex: Int
        if let first = fields.first, keyIsK(line, first) {
            kindIndex = 0
        } else if let index = fields.firstIndex(where: { keyIsK(line, $0) }) {
            kindIndex = index
        } else {
            throw TraceDecodingError(line: lineNumber, reason: .missingKind)
        }
        let kindField = fields[kindIndex]
        let kindBytes = UnsafeBufferPointer(rebasing: line[kindField.valueStart..<kindField.valueEnd])
        let known: TraceLineKind?
        switch kindField.type {
        case .plainString:
            known = lineKind(kindBytes)
        case .escapedString:
            known = (try? JSONStringDecoding.decode(kindBytes, escaped: true)).flatMap(TraceLineKind.init(rawValue:))
        default:
            throw TraceDecodingError(line: lineNumber, reason: .missingKind)
        }
        guard let kind = known else {
            let name = (try? JSONStringDecoding.decode(kindBytes, escaped: kindField.type == .escapedString)) ?? ""
            return .unknown(TraceUnknownLine(kind: name, line: String(decoding: trimmed(line), as: UTF8.self)))
        }
        // Lookups start just after "k", where the encoder puts the next field.
        var reader = TraceFieldReader(
            line: line, fields: fields, lineNumber: lineNumber, kind: kind,
            cursor: kindIndex + 1, names: names)
        return try decode(kind, &reader)
    }

    /// Whether a member's key is `k`, escaped or not.
    private static func keyIsK(_ line: UnsafeBufferPointer<UInt8>, _ field: JSONField) -> Bool {
        if field.keyEscaped {
            let key = UnsafeBufferPointer(rebasing: line[field.keyStart..<field.keyEnd])
            return (try? JSONStringDecoding.decode(key, escaped: true)) == WireKind.key.description
        }
        let expected = WireKind.key
        return field.keyEnd - field.keyStart == expected.utf8CodeUnitCount
            && line[field.keyStart] == expected.utf8Start[0]
    }

    private static func decode(_ kind: TraceLineKind, _ reader: inout TraceFieldReader) throws(TraceDecodingError)
        -> TraceEvent
    {
        switch kind {
        case .delivered:
            return .delivered(
                TraceDelivery(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    postID: try reader.uint64(.postID), registration: try reader.uint64(.registration),
                    name: try reader.string(.name), postingThread: try reader.uint64(.postingThread),
                    target: try reader.enumeration(.target), start: try reader.uint64(.start),
                    duration: try reader.uint64(.duration), wait: try reader.uint64(.wait),
                    depth: try reader.integer(.depth)))
        case .posted:
            return .posted(
                TracePost(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    postID: try reader.uint64(.postID), name: try reader.string(.name),
                    object: try reader.optionalUInt64(.object), hasUserInfo: try reader.bool(.hasUserInfo),
                    matched: try reader.integer(.matched), depth: try reader.integer(.depth),
                    parentPostID: try reader.uint64(.parentPostID), callsite: try reader.uint64(.callsite),
                    message: try reader.optionalEnumeration(.message), center: try reader.optionalUInt32(.center)))
        case .registered:
            return .registered(
                TraceRegistration(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    id: try reader.uint64(.id), name: try reader.optionalString(.name),
                    kind: try reader.enumeration(.kind), observer: try reader.optionalUInt64(.observer),
                    object: try reader.optionalUInt64(.object), target: try reader.enumeration(.target),
                    targetLabel: try reader.optionalString(.targetLabel), callsite: try reader.uint64(.callsite),
                    preexisting: try reader.bool(.preexisting),
                    capturesObserverStrongly: try reader.bool(.capturesObserverStrongly),
                    mainThreadOnly: try reader.optionalBool(.mainThreadOnly) ?? false,
                    registeredAt: try reader.optionalUInt64(.registeredAt),
                    deliveries: try reader.optionalUInt64(.deliveries), center: try reader.optionalUInt32(.center)))
        case .removed:
            return .removed(
                TraceRemoval(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    registration: try reader.uint64(.registration), reason: try reader.enumeration(.reason),
                    callsite: try reader.optionalUInt64(.callsite)))
        case .objectDead:
            return .objectDead(
                TraceObjectDeath(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    registration: try reader.uint64(.registration), object: try reader.optionalUInt64(.object),
                    aliveAt: try reader.uint64(.aliveAt)))
        case .merged:
            return .merged(
                TraceQueueMerge(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    queueID: try reader.uint64(.queueID), postID: try reader.uint64(.postID),
                    callsite: try reader.uint64(.callsite), count: try reader.uint64(.count),
                    enqueuedAt: try reader.uint64(.enqueuedAt)))
        case .tokenDropped:
            return .tokenDropped(
                TraceTokenDrop(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    registration: try reader.uint64(.registration)))
        case .removeMissed:
            return .removeMissed(
                TraceMissedRemoval(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    observer: try reader.uint64(.observer), name: try reader.optionalString(.name),
                    callsite: try reader.uint64(.callsite)))
        case .queue:
            return .queue(
                TraceQueueActivity(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    queueID: try reader.uint64(.queueID), action: try reader.enumeration(.action),
                    name: try reader.optionalString(.name), style: try reader.optionalString(.style),
                    count: try reader.integer(.count), pending: try reader.integer(.pending)))
        case .checkpoint:
            return .checkpoint(
                TraceCheckpoint(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    label: try reader.string(.label), callsite: try reader.uint64(.callsite),
                    preexisting: try reader.optionalBool(.preexisting) ?? false))
        case .thread:
            return .thread(
                TraceThread(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), id: try reader.uint64(.id),
                    systemID: try reader.integer(.systemID), name: try reader.string(.name),
                    isMain: try reader.bool(.isMain)))
        case .type:
            return .type(TraceType(id: try reader.uint64(.id), name: try reader.string(.name)))
        case .object:
            return .object(
                TraceObject(
                    id: try reader.uint64(.id), type: try reader.uint64(.type), address: try reader.hexUInt64(.addr)))
        case .center:
            return .center(TraceCenter(index: try reader.uint32(.center), label: try reader.string(.label)))
        case .callsite:
            let id = try reader.uint64(.id)
            let file = try reader.string(.file)
            let line = try reader.uint64(.line)
            guard let narrowed = UInt(exactly: line) else {
                throw TraceDecodingError(
                    line: reader.lineNumber,
                    reason: .invalidValue(
                        kind: TraceLineKind.callsite.rawValue,
                        field: WireKey.line.text, value: "\(line)"))
            }
            return .callsite(TraceCallsite(id: id, file: file, line: narrowed))
        case .gap:
            return .gap(
                TraceGap(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), count: try reader.uint64(.count),
                    reason: TraceGapReason(rawValue: try reader.string(.reason))))
        case .end:
            return .end(
                TraceEnd(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t),
                    reason: TraceEndReason(rawValue: try reader.string(.reason)),
                    behindNanoseconds: try reader.optionalUInt64(.behind),
                    missedEvents: try reader.optionalUInt64(.missed),
                    queuedBytes: try reader.optionalUInt64(.queuedBytes)))
        case .tick:
            return .tick(
                TraceTick(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t),
                    viewers: try reader.optionalUInt64(.viewers)))
        case .enqueued:
            return .enqueued(
                TraceMessageEnqueue(
                    seq: try reader.uint64(.seq), timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    postID: try reader.uint64(.postID), registration: try reader.uint64(.registration),
                    pending: try reader.integer(.pending), droppedOldest: try reader.bool(.droppedOldest)))
        case .history:
            // Zero counts may be left out: history lines are added up.
            return .history(
                TraceHistory(
                    timestamp: try reader.uint64(.t), thread: try reader.uint64(.thread),
                    name: try reader.optionalString(.name), posts: try reader.optionalUInt64(.posts) ?? 0,
                    deliveries: try reader.optionalUInt64(.deliveries) ?? 0,
                    unheard: try reader.optionalUInt64(.unheard) ?? 0,
                    registration: try reader.optionalUInt64(.registration),
                    recent: try reader.optionalBool(.recent) ?? false))
        case .siteCount:
            return .siteCount(
                TraceSiteCount(
                    timestamp: try reader.uint64(.t), name: try reader.optionalString(.name),
                    callsite: try reader.uint64(.callsite), live: try reader.uint64(.live)))
        case .header:
            return .header(try header(&reader))
        }
    }

    /// Reads and validates a header: the format name first, then the version, before anything else.
    private static func header(_ reader: inout TraceFieldReader) throws(TraceDecodingError) -> TraceHeader {
        let format = try reader.string(.format)
        guard format == TraceHeader.formatName else {
            throw TraceDecodingError(line: reader.lineNumber, reason: .notATrace(format: format))
        }
        let versionText = try reader.string(.version)
        guard let version = TraceFormatVersion(versionText) else {
            throw TraceDecodingError(
                line: reader.lineNumber,
                reason: .invalidValue(
                    kind: TraceLineKind.header.rawValue,
                    field: WireKey.version.text, value: "\"\(versionText)\""))
        }
        guard version.isReadable else {
            throw TraceDecodingError(line: reader.lineNumber, reason: .unsupportedVersion(versionText))
        }
        return TraceHeader(
            version: version, pid: try reader.integer(.pid), process: try reader.string(.process),
            center: try reader.string(.center), clockMono: try reader.uint64(.clockMono),
            clockWall: try reader.uint64(.clockWall), producer: try reader.string(.producer),
            since: try reader.optionalUInt64(.since),
            centers: try reader.optionalStrings(.centers, maximumCount: TraceHeader.maximumCenters))
    }

    /// Matches the kind's bytes against the known names, most frequent first.
    private static func lineKind(_ bytes: UnsafeBufferPointer<UInt8>) -> TraceLineKind? {
        for kind in kindsByFrequency where equals(bytes, kind.wire.name) {
            return kind
        }
        return nil
    }

    private static let kindsByFrequency: [TraceLineKind] = [
        .delivered, .posted, .enqueued, .registered, .removed, .queue, .object, .type, .callsite, .thread,
        .tokenDropped,
        .removeMissed, .merged, .objectDead, .gap, .end, .tick, .checkpoint, .history, .siteCount, .header,
        .center,
    ]

    @inline(__always)
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == name.count else { return false }
        for index in 0..<bytes.count where bytes[index] != name[index] {
            return false
        }
        return true
    }

    private static func trimmed(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = line.count
        while start < end, line[start] == 0x20 || line[start] == 0x09 || line[start] == 0x0D { start += 1 }
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 || line[end - 1] == 0x0D { end -= 1 }
        return UnsafeBufferPointer(rebasing: line[start..<end])
    }
}
