/// Reads typed fields out of a scanned line, turning every problem into a ``TraceDecodingError``
/// that names the line, the kind and the field.
///
/// Lookups start where the previous one matched, so a line written in the encoder's field order
/// finds each field at the first comparison; any other order still works.
///
/// Holds only pointers and integers, so passing it around costs no reference counting.
struct TraceFieldReader {
    let line: UnsafeBufferPointer<UInt8>
    let fields: UnsafeBufferPointer<JSONField>
    let lineNumber: Int
    /// The line's kind, for messages.
    let lineKind: TraceLineKind
    /// Where the next lookup starts.
    private var cursor: Int
    /// The decoder's cache of strings seen before, which plain (unescaped) strings come from.
    private let names: UnsafeMutablePointer<StringInterner>

    init(
        line: UnsafeBufferPointer<UInt8>, fields: UnsafeBufferPointer<JSONField>, lineNumber: Int,
        kind: TraceLineKind, cursor: Int, names: UnsafeMutablePointer<StringInterner>
    ) {
        self.line = line
        self.fields = fields
        self.lineNumber = lineNumber
        self.lineKind = kind
        self.cursor = cursor
        self.names = names
    }

    /// The kind's wire name, for messages.
    private var kind: String { lineKind.rawValue }

    /// The index of the field named `key`, or nil.
    mutating func find(_ key: WireKey) -> Int? {
        let count = fields.count
        guard count > 0 else { return nil }
        var index = cursor < count ? cursor : 0
        for _ in 0..<count {
            if keyMatches(fields[index], key) {
                cursor = index + 1
                return index
            }
            index += 1
            if index == count { index = 0 }
        }
        return nil
    }

    private func keyMatches(_ field: JSONField, _ key: WireKey) -> Bool {
        let expected = key.name
        if field.keyEscaped {
            let content = UnsafeBufferPointer(rebasing: line[field.keyStart..<field.keyEnd])
            return (try? JSONStringDecoding.decode(content, escaped: true)) == key.text
        }
        guard field.keyEnd - field.keyStart == expected.count else { return false }
        var offset = 0
        while offset < expected.count {
            guard line[field.keyStart + offset] == expected[offset] else { return false }
            offset += 1
        }
        return true
    }

    private func error(_ reason: TraceDecodingError.Reason) -> TraceDecodingError {
        TraceDecodingError(line: lineNumber, reason: reason)
    }

    private func wrongType(_ key: WireKey, _ expected: String) -> TraceDecodingError {
        error(.wrongType(kind: kind, field: key.text, expected: expected))
    }

    /// The value's raw text, shortened, for messages.
    private func rawText(_ field: JSONField) -> String {
        let end = min(field.valueEnd, field.valueStart + 40)
        let text = String(decoding: UnsafeBufferPointer(rebasing: line[field.valueStart..<end]), as: UTF8.self)
        let quoted = field.type == .plainString || field.type == .escapedString ? "\"\(text)\"" : text
        return end < field.valueEnd ? quoted + "…" : quoted
    }

    private mutating func required(_ key: WireKey) throws(TraceDecodingError) -> JSONField {
        guard let index = find(key) else { throw error(.missingField(kind: kind, field: key.text)) }
        return fields[index]
    }

    /// Parses an integer field's digits; nil when it does not fit in 64 bits.
    private func magnitude(_ field: JSONField) -> (negative: Bool, value: UInt64)? {
        var index = field.valueStart
        let negative = line[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: UInt64 = 0
        if field.valueEnd - index <= 19 {
            // Nineteen digits always fit in 64 bits: no overflow checks needed.
            while index < field.valueEnd {
                value = value &* 10 &+ UInt64(line[index] &- UInt8(ascii: "0"))
                index += 1
            }
            return (negative, value)
        }
        while index < field.valueEnd {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(line[index] &- UInt8(ascii: "0")))
            guard !overflow1 && !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return (negative, value)
    }

    /// A required unsigned 64-bit integer.
    mutating func uint64(_ key: WireKey) throws(TraceDecodingError) -> UInt64 {
        try unsignedValue(required(key), key)
    }

    /// An unsigned 64-bit integer that may be `null` or absent.
    mutating func optionalUInt64(_ key: WireKey) throws(TraceDecodingError) -> UInt64? {
        guard let index = find(key), fields[index].type != .null else { return nil }
        return try unsignedValue(fields[index], key)
    }

    /// A required unsigned 32-bit integer: a larger value is invalid.
    mutating func uint32(_ key: WireKey) throws(TraceDecodingError) -> UInt32 {
        let field = try required(key)
        guard let value = UInt32(exactly: try unsignedValue(field, key)) else {
            throw error(.invalidValue(kind: kind, field: key.text, value: rawText(field)))
        }
        return value
    }

    /// An unsigned 32-bit integer that may be `null` or absent: a larger value is invalid.
    mutating func optionalUInt32(_ key: WireKey) throws(TraceDecodingError) -> UInt32? {
        guard let index = find(key), fields[index].type != .null else { return nil }
        let field = fields[index]
        guard let value = UInt32(exactly: try unsignedValue(field, key)) else {
            throw error(.invalidValue(kind: kind, field: key.text, value: rawText(field)))
        }
        return value
    }

    /// An array of strings that may be `null` or absent; more than `maximumCount` strings is
    /// invalid, and is refused before any of them is made.
    mutating func optionalStrings(_ key: WireKey, maximumCount: Int) throws(TraceDecodingError) -> [String]? {
        guard let index = find(key), fields[index].type != .null else { return nil }
        let field = fields[index]
        // The scanner validated the array's grammar: what is left to check is that it holds
        // strings only, and how many.
        guard field.type == .nested, line[field.valueStart] == UInt8(ascii: "[") else {
            throw wrongType(key, "an array of strings")
        }
        var elements: [(start: Int, end: Int, escaped: Bool)] = []
        var cursor = field.valueStart + 1
        func skipWhitespace() {
            while cursor < field.valueEnd {
                switch line[cursor] {
                case 0x20, 0x09, 0x0D, 0x0A: cursor += 1
                default: return
                }
            }
        }
        skipWhitespace()
        while cursor < field.valueEnd, line[cursor] != UInt8(ascii: "]") {
            guard line[cursor] == UInt8(ascii: "\"") else { throw wrongType(key, "an array of strings") }
            guard elements.count < maximumCount else {
                throw error(
                    .invalidValue(kind: kind, field: key.text, value: "[…] (more than \(maximumCount) entries)"))
            }
            cursor += 1
            let start = cursor
            var escaped = false
            while line[cursor] != UInt8(ascii: "\"") {
                if line[cursor] == UInt8(ascii: "\\") {
                    escaped = true
                    cursor += 1
                }
                cursor += 1
            }
            elements.append((start, cursor, escaped))
            cursor += 1
            skipWhitespace()
            if cursor < field.valueEnd, line[cursor] == UInt8(ascii: ",") { cursor += 1 }
            skipWhitespace()
        }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            let content = UnsafeBufferPointer(rebasing: line[element.start..<element.end])
            guard element.escaped else {
                strings.append(names.pointee.string(content))
                continue
            }
            do {
                strings.append(try JSONStringDecoding.decode(content, escaped: true))
            } catch {
                throw self.error(
                    .invalidValue(kind: kind, field: key.text, value: rawText(field) + " (lone surrogate)"))
            }
        }
        return strings
    }

    private func unsignedValue(_ field: JSONField, _ key: WireKey) throws(TraceDecodingError) -> UInt64 {
        guard field.type == .integer else { throw wrongType(key, "an unsigned integer") }
        guard let (negative, value) = magnitude(field), !negative || value == 0 else {
            throw error(.invalidValue(kind: kind, field: key.text, value: rawText(field)))
        }
        return value
    }

    /// A required signed integer within `type`'s range.
    mutating func integer<Value: FixedWidthInteger & SignedInteger>(
        _ key: WireKey, as type: Value.Type = Value.self
    ) throws(TraceDecodingError) -> Value {
        let field = try required(key)
        guard field.type == .integer else { throw wrongType(key, "an integer") }
        if let (negative, value) = magnitude(field) {
            if !negative, let result = Value(exactly: value) { return result }
            if negative, let result = Value(exactly: value) { return 0 - result }
            if negative, value == UInt64(Value.min.magnitude) { return Value.min }
        }
        throw error(.invalidValue(kind: kind, field: key.text, value: rawText(field)))
    }

    /// A required boolean.
    mutating func bool(_ key: WireKey) throws(TraceDecodingError) -> Bool {
        switch try required(key).type {
        case .true: true
        case .false: false
        default: throw wrongType(key, "true or false")
        }
    }

    /// A boolean that may be `null` or absent (fields added in a minor version).
    mutating func optionalBool(_ key: WireKey) throws(TraceDecodingError) -> Bool? {
        guard let index = find(key) else { return nil }
        switch fields[index].type {
        case .true: return true
        case .false: return false
        case .null: return nil
        default: throw wrongType(key, "true, false or null")
        }
    }

    /// A required string.
    mutating func string(_ key: WireKey) throws(TraceDecodingError) -> String {
        try stringValue(required(key), key)
    }

    /// A string that may be `null` or absent.
    mutating func optionalString(_ key: WireKey) throws(TraceDecodingError) -> String? {
        guard let index = find(key), fields[index].type != .null else { return nil }
        return try stringValue(fields[index], key)
    }

    private func stringValue(_ field: JSONField, _ key: WireKey) throws(TraceDecodingError) -> String {
        guard field.type == .plainString || field.type == .escapedString else { throw wrongType(key, "a string") }
        let content = UnsafeBufferPointer(rebasing: line[field.valueStart..<field.valueEnd])
        if field.type == .plainString { return names.pointee.string(content) }
        do {
            return try JSONStringDecoding.decode(content, escaped: true)
        } catch {
            throw self.error(.invalidValue(kind: kind, field: key.text, value: rawText(field) + " (lone surrogate)"))
        }
    }

    /// A required string naming a case of `Value`.
    mutating func enumeration<Value: RawRepresentable<String>>(
        _ key: WireKey, as type: Value.Type = Value.self
    ) throws(TraceDecodingError) -> Value {
        let field = try required(key)
        guard let value = Value(rawValue: try stringValue(field, key)) else {
            throw error(.invalidValue(kind: kind, field: key.text, value: rawText(field)))
        }
        return value
    }

    /// A string naming a case of `Value`, or `null` or absent (fields added in a minor version).
    mutating func optionalEnumeration<Value: RawRepresentable<String>>(
        _ key: WireKey, as type: Value.Type = Value.self
    ) throws(TraceDecodingError) -> Value? {
        guard let index = find(key), fields[index].type != .null else { return nil }
        guard let value = Value(rawValue: try stringValue(fields[index], key)) else {
            throw error(.invalidValue(kind: kind, field: key.text, value: rawText(fields[index])))
        }
        return value
    }

    /// A required `"0x…"` hex string, such as an object's address.
    mutating func hexUInt64(_ key: WireKey) throws(TraceDecodingError) -> UInt64 {
        let field = try required(key)
        guard field.type == .plainString else { throw wrongType(key, "a \"0x…\" hex string") }
        let start = field.valueStart
        let digits = field.valueEnd - start - 2
        guard digits >= 1, digits <= 16, line[start] == UInt8(ascii: "0"), line[start + 1] == UInt8(ascii: "x")
        else { throw error(.invalidValue(kind: kind, field: key.text, value: rawText(field))) }
        var value: UInt64 = 0
        for index in (start + 2)..<field.valueEnd {
            guard let digit = JSONStringDecoding.hexValue(line[index]) else {
                throw error(.invalidValue(kind: kind, field: key.text, value: rawText(field)))
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
