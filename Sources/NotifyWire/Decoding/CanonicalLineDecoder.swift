/// A fast path for the lines that make up nearly all of a busy stream (`deliver`, `post`,
/// `enqueue`, `register`, `remove`, `queue`, `obj`, and the idle stream's `tick`) exactly as ``TraceEncoder`` writes them: keys in the
/// encoder's order, no whitespace, no escapes, no extra fields. It reads such a line in one pass,
/// comparing each key as a literal, with no scan into a field list and no key lookups.
///
/// Any other line, or any byte that does not fit that shape (a space, a backslash, an unusual
/// number such as `-0` or `01`, an unknown enumeration value), makes it give up and return nil,
/// and the general decoder reads the line, with its error messages. A line it does accept is
/// valid JSON with one member per key, so the general decoder would produce the same event.
struct CanonicalLineDecoder {
    private let line: UnsafeBufferPointer<UInt8>
    private let base: UnsafePointer<UInt8>
    private var index = 0
    private let names: UnsafeMutablePointer<StringInterner>
    /// The summary of the event appended.
    private var summary = TraceEventSummary(kind: nil, seq: nil, timestamp: nil)

    /// The event for `line`, or nil when the line is not in the encoder's exact shape.
    static func decode(_ line: UnsafeBufferPointer<UInt8>, names: UnsafeMutablePointer<StringInterner>) -> TraceEvent? {
        var events: [TraceEvent] = []
        var summary = TraceEventSummary(kind: nil, seq: nil, timestamp: nil)
        return decode(line, names: names, appendingTo: &events, summary: &summary) ? events[0] : nil
    }

    /// Appends the event for `line` to `events` and sets `summary` to its summary; false,
    /// appending nothing, when the line is not in the encoder's exact shape.
    static func decode(
        _ line: UnsafeBufferPointer<UInt8>, names: UnsafeMutablePointer<StringInterner>,
        appendingTo events: inout [TraceEvent], summary: inout TraceEventSummary
    ) -> Bool {
        guard let base = line.baseAddress, line.count > WireKind.openingPrefix.utf8CodeUnitCount + 2 else {
            return false
        }
        var reader = CanonicalLineDecoder(line: line, base: base, names: names)
        guard reader.append(to: &events) else { return false }
        summary = reader.summary
        return true
    }

    private init(
        line: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>, names: UnsafeMutablePointer<StringInterner>
    ) {
        self.line = line
        self.base = base
        self.names = names
    }

    /// Appends the line's event once the whole line has matched; each kind checks the line's end
    /// before it builds the event, so the event is built where it is kept.
    private mutating func append(to events: inout [TraceEvent]) -> Bool {
        // The kind's first letter, just after `{"k":"`, picks the candidates.
        switch base[WireKind.openingPrefix.utf8CodeUnitCount] {
        case UInt8(ascii: "d"): delivered(&events)
        case UInt8(ascii: "p"): posted(&events)
        case UInt8(ascii: "e"): enqueued(&events)
        case UInt8(ascii: "r"): kind(.registered) ? registered(&events) : kind(.removed) ? removed(&events) : false
        case UInt8(ascii: "q"): queue(&events)
        case UInt8(ascii: "o"): object(&events)
        case UInt8(ascii: "t"): tick(&events)
        default: false
        }
    }

    /// Consumes the closing brace, which must end the line.
    @inline(__always)
    private mutating func closed() -> Bool { literal("}") && index == line.count }

    private mutating func delivered(_ events: inout [TraceEvent]) -> Bool {
        guard kind(.delivered), key(.seq), let seq = unsigned(), key(.t), let t = unsigned(),
            key(.thread), let thread = unsigned(), key(.postID), let postID = unsigned(),
            key(.registration), let registration = unsigned(), key(.name), let name = string(),
            key(.postingThread), let postingThread = unsigned(),
            key(.target), let target = enumeration(TraceTargetKind.self),
            key(.start), let start = unsigned(), key(.duration), let duration = unsigned(),
            key(.wait), let wait = unsigned(), key(.depth), let depth = integer(),
            closed()
        else { return false }
        summary = TraceEventSummary(kind: .delivered, seq: seq, timestamp: t)
        events.append(
            .delivered(
                TraceDelivery(
                    seq: seq, timestamp: t, thread: thread, postID: postID, registration: registration, name: name,
                    postingThread: postingThread, target: target, start: start, duration: duration, wait: wait,
                    depth: depth
                )))
        return true
    }

    private mutating func posted(_ events: inout [TraceEvent]) -> Bool {
        guard kind(.posted), key(.seq), let seq = unsigned(), key(.t), let t = unsigned(),
            key(.thread), let thread = unsigned(), key(.postID), let postID = unsigned(),
            key(.name), let name = string(), key(.object), let object = optionalUnsigned(),
            key(.hasUserInfo), let hasUserInfo = bool(), key(.matched), let matched = integer(),
            key(.depth), let depth = integer(), key(.parentPostID), let parent = unsigned(),
            key(.callsite), let callsite = unsigned()
        else { return false }
        var message: TraceMessageKind?
        if key(.message) {
            guard let kind = enumeration(TraceMessageKind.self) else { return false }
            message = kind
        }
        var center: UInt32?
        if key(.center) {
            guard let index = unsigned32() else { return false }
            center = index
        }
        guard closed() else { return false }
        summary = TraceEventSummary(kind: .posted, seq: seq, timestamp: t)
        events.append(
            .posted(
                TracePost(
                    seq: seq, timestamp: t, thread: thread, postID: postID, name: name, object: object,
                    hasUserInfo: hasUserInfo, matched: matched, depth: depth, parentPostID: parent, callsite: callsite,
                    message: message, center: center)))
        return true
    }

    private mutating func enqueued(_ events: inout [TraceEvent]) -> Bool {
        guard kind(.enqueued), key(.seq), let seq = unsigned(), key(.t), let t = unsigned(),
            key(.thread), let thread = unsigned(), key(.postID), let postID = unsigned(),
            key(.registration), let registration = unsigned(), key(.pending), let pending = integer(),
            key(.droppedOldest), let droppedOldest = bool(),
            closed()
        else { return false }
        summary = TraceEventSummary(kind: .enqueued, seq: seq, timestamp: t)
        events.append(
            .enqueued(
                TraceMessageEnqueue(
                    seq: seq, timestamp: t, thread: thread, postID: postID, registration: registration,
                    pending: pending,
                    droppedOldest: droppedOldest)))
        return true
    }

    /// The rest of a `register` line, after its opening.
    private mutating func registered(_ events: inout [TraceEvent]) -> Bool {
        guard key(.seq), let seq = unsigned(), key(.t), let t = unsigned(),
            key(.thread), let thread = unsigned(), key(.id), let id = unsigned(),
            key(.name), let name = optionalString(),
            key(.kind), let kind = enumeration(TraceRegistrationKind.self),
            key(.observer), let observer = optionalUnsigned(),
            key(.object), let object = optionalUnsigned(),
            key(.target), let target = enumeration(TraceTargetKind.self),
            key(.targetLabel), let targetLabel = optionalString(),
            key(.callsite), let callsite = unsigned(),
            key(.preexisting), let preexisting = bool(),
            key(.capturesObserverStrongly), let strongly = bool(),
            key(.mainThreadOnly), let mainThreadOnly = bool(),
            key(.registeredAt), let registeredAt = optionalUnsigned()
        else { return false }
        var deliveries: UInt64?
        if key(.deliveries) {
            guard let count = unsigned() else { return false }
            deliveries = count
        }
        var center: UInt32?
        if key(.center) {
            guard let index = unsigned32() else { return false }
            center = index
        }
        guard closed() else { return false }
        summary = TraceEventSummary(kind: .registered, seq: seq, timestamp: t)
        events.append(
            .registered(
                TraceRegistration(
                    seq: seq, timestamp: t, thread: thread, id: id, name: name, kind: kind, observer: observer,
                    object: object, target: target, targetLabel: targetLabel, callsite: callsite,
                    preexisting: preexisting,
                    capturesObserverStrongly: strongly, mainThreadOnly: mainThreadOnly, registeredAt: registeredAt,
                    deliveries: deliveries, center: center)))
        return true
    }

    /// The rest of a `remove` line, after its opening.
    private mutating func removed(_ events: inout [TraceEvent]) -> Bool {
        guard key(.seq), let seq = unsigned(), key(.t), let t = unsigned(),
            key(.thread), let thread = unsigned(),
            key(.registration), let registration = unsigned(),
            key(.reason), let reason = enumeration(TraceRemovalReason.self)
        else { return false }
        // 1.5 writes the ending call's site; a 1.4 line ends after the reason.
        var callsite: UInt64?
        if key(.callsite) {
            guard let site = optionalUnsigned() else { return false }
            callsite = site
        }
        guard closed() else { return false }
        summary = TraceEventSummary(kind: .removed, seq: seq, timestamp: t)
        events.append(
            .removed(
                TraceRemoval(
                    seq: seq, timestamp: t, thread: thread, registration: registration, reason: reason,
                    callsite: callsite)))
        return true
    }

    private mutating func queue(_ events: inout [TraceEvent]) -> Bool {
        guard kind(.queue), key(.seq), let seq = unsigned(), key(.t), let t = unsigned(),
            key(.thread), let thread = unsigned(), key(.queueID), let queueID = unsigned(),
            key(.action), let action = enumeration(TraceQueueAction.self),
            key(.name), let name = optionalString(), key(.style), let style = optionalString(),
            key(.count), let count = integer(), key(.pending), let pending = integer(),
            closed()
        else { return false }
        summary = TraceEventSummary(kind: .queue, seq: seq, timestamp: t)
        events.append(
            .queue(
                TraceQueueActivity(
                    seq: seq, timestamp: t, thread: thread, queueID: queueID, action: action, name: name, style: style,
                    count: count, pending: pending)))
        return true
    }

    private mutating func object(_ events: inout [TraceEvent]) -> Bool {
        guard kind(.object), key(.id), let id = unsigned(), key(.type), let type = unsigned(),
            key(.addr), literal("\"0x"), let address = hexDigits(),
            closed()
        else { return false }
        summary = TraceEventSummary(kind: .object, seq: nil, timestamp: nil)
        events.append(.object(TraceObject(id: id, type: type, address: address)))
        return true
    }

    private mutating func tick(_ events: inout [TraceEvent]) -> Bool {
        guard kind(.tick), key(.seq), let seq = unsigned(), key(.t), let t = unsigned() else { return false }
        var viewers: UInt64?
        if key(.viewers) {
            guard let count = unsigned() else { return false }
            viewers = count
        }
        guard closed() else { return false }
        summary = TraceEventSummary(kind: .tick, seq: seq, timestamp: t)
        events.append(.tick(TraceTick(seq: seq, timestamp: t, viewers: viewers)))
        return true
    }

    // MARK: Values

    /// Consumes `text` if the line continues with exactly it.
    @inline(__always)
    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard line.count - index >= count else { return false }
        let expected = text.utf8Start
        var offset = 0
        while offset + 8 <= count {
            guard
                UnsafeRawPointer(base + index + offset).loadUnaligned(as: UInt64.self)
                    == UnsafeRawPointer(expected + offset).loadUnaligned(as: UInt64.self)
            else { return false }
            offset += 8
        }
        // The rest (most keys are 5 to 15 bytes) in at most three loads: 4, 2 and 1 bytes.
        if offset + 4 <= count {
            guard
                UnsafeRawPointer(base + index + offset).loadUnaligned(as: UInt32.self)
                    == UnsafeRawPointer(expected + offset).loadUnaligned(as: UInt32.self)
            else { return false }
            offset += 4
        }
        if offset + 2 <= count {
            guard
                UnsafeRawPointer(base + index + offset).loadUnaligned(as: UInt16.self)
                    == UnsafeRawPointer(expected + offset).loadUnaligned(as: UInt16.self)
            else { return false }
            offset += 2
        }
        if offset < count {
            guard base[index + offset] == expected[offset] else { return false }
        }
        index += count
        return true
    }

    /// Consumes a line's opening for `kind`, `{"k":"name"`.
    @inline(__always)
    private mutating func kind(_ kind: WireKind) -> Bool { literal(kind.opening) }

    /// Consumes a field's opening, `,"key":`.
    @inline(__always)
    private mutating func key(_ key: WireKey) -> Bool { literal(key.opening) }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// `0`, or 1 to 19 digits without a leading zero: always within UInt64.
    @inline(__always)
    private mutating func unsigned() -> UInt64? {
        guard index < line.count else { return nil }
        let first = base[index]
        if first == UInt8(ascii: "0") {
            index += 1
            return index < line.count && isDigit(base[index]) ? nil : 0
        }
        guard isDigit(first) else { return nil }
        let start = index
        var value: UInt64 = 0
        while index < line.count, isDigit(base[index]) {
            value = value &* 10 &+ UInt64(base[index] &- UInt8(ascii: "0"))
            index += 1
        }
        return index - start <= 19 ? value : nil
    }

    /// A center index: larger values take the general path, which reports them.
    @inline(__always)
    private mutating func unsigned32() -> UInt32? {
        unsigned().flatMap { UInt32(exactly: $0) }
    }

    /// A non-negative integer of up to 18 digits (negative ones take the general path).
    @inline(__always)
    private mutating func integer() -> Int? {
        let start = index
        guard let value = unsigned(), index - start <= 18 else { return nil }
        return Int(value)
    }

    private mutating func optionalUnsigned() -> UInt64?? {
        if literal("null") { return .some(nil) }
        return unsigned().map { $0 }
    }

    private mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// A string with no escape and no control character, from the decoder's interned strings.
    @inline(__always)
    private mutating func string() -> String? {
        guard index < line.count, base[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        index = JSONStringScan.plainBytesEnd(base, from: index, count: line.count)
        while index < line.count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(start: base + start, count: index - start)
                index += 1
                return names.pointee.string(content)
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    private mutating func optionalString() -> String?? {
        if literal("null") { return .some(nil) }
        return string().map { $0 }
    }

    /// A quoted wire spelling of one of `Value`'s cases, matched byte for byte: no `String` is
    /// made. Anything else (an unknown value, an escaped spelling) takes the general path.
    private mutating func enumeration<Value: CanonicalSpelling>(_ type: Value.Type) -> Value? {
        guard index < line.count, base[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var end = start
        while end < line.count, base[end] != UInt8(ascii: "\"") { end += 1 }
        guard end < line.count else { return nil }
        let length = end - start
        for spelling in Value.canonicalSpellings where spelling.bytes.count == length {
            var offset = 0
            while offset < length, base[start + offset] == spelling.bytes[offset] { offset += 1 }
            if offset == length {
                index = end + 1
                return spelling.value
            }
        }
        return nil
    }

    /// 1 to 16 lowercase or uppercase hex digits, then the closing quote.
    private mutating func hexDigits() -> UInt64? {
        let start = index
        var value: UInt64 = 0
        while index < line.count, let digit = JSONStringDecoding.hexValue(base[index]) {
            value = value << 4 | UInt64(digit)
            index += 1
        }
        let digits = index - start
        guard digits >= 1, digits <= 16, index < line.count, base[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        return value
    }
}

/// An enumeration the fast path reads: its cases' wire spellings as bytes, made once per type
/// (`allCases` and `rawValue` would build an array and strings on every line).
protocol CanonicalSpelling: RawRepresentable<String>, CaseIterable {
    static var canonicalSpellings: [(bytes: [UInt8], value: Self)] { get }
}

extension CanonicalSpelling {
    fileprivate static func spellingTable() -> [(bytes: [UInt8], value: Self)] {
        allCases.map { (Array($0.rawValue.utf8), $0) }
    }
}

extension TraceTargetKind: CanonicalSpelling {
    static let canonicalSpellings = spellingTable()
}

extension TraceMessageKind: CanonicalSpelling {
    static let canonicalSpellings = spellingTable()
}

extension TraceRegistrationKind: CanonicalSpelling {
    static let canonicalSpellings = spellingTable()
}

extension TraceRemovalReason: CanonicalSpelling {
    static let canonicalSpellings = spellingTable()
}

extension TraceQueueAction: CanonicalSpelling {
    static let canonicalSpellings = spellingTable()
}
