/// A name as ``CountingProgram`` keys its maps: nine numbers that hold it whole up to
/// ``ProbeProgram/nameLimit`` bytes. `high` is a small string's high word (bit 61 set, `low` the
/// other word), 0 for nil, else a large string's byte count with its first bytes in `words`.
package struct CountedName: Hashable, Sendable {
    package var high: UInt64
    /// The low word of a small string, or a large string's bytes, little-endian.
    package var words: [UInt64]

    package init(high: UInt64, words: [UInt64]) {
        self.high = high
        self.words = words
    }

    /// The name as a line would have given it.
    package var probeName: ProbeName? {
        if high == 0 { return ProbeName.none }
        if (high >> 61) & 1 == 1 {
            guard let text = SwiftStringWords.smallString(low: words.first ?? 0, high: high) else { return nil }
            return .text(text, truncated: false)
        }
        let count = min(high, UInt64(ProbeProgram.nameLimit))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let word = index / 8 < words.count ? words[index / 8] : 0
            bytes.append(UInt8(truncatingIfNeeded: word >> (UInt64(index % 8) * 8)))
        }
        // As `%s` prints it: up to the first NUL.
        if let end = bytes.firstIndex(of: 0) { bytes.removeSubrange(end...) }
        let text = String(decoding: bytes, as: UTF8.self)
        return .text(text, truncated: UInt64(text.utf8.count) < high)
    }
}

/// Where a post was counted: its name, center, typed message metadata (r8), the return address
/// into its caller, and the posting thread.
package struct CountedPost: Hashable, Sendable {
    package var name: CountedName
    package var center: UInt64
    package var metadata: UInt64
    package var caller: UInt64
    package var thread: Int32

    package init(name: CountedName, center: UInt64, metadata: UInt64, caller: UInt64, thread: Int32) {
        self.name = name
        self.center = center
        self.metadata = metadata
        self.caller = caller
        self.thread = thread
    }
}

/// One line of ``CountingProgram``'s map reads; nil for what is not one.
package enum CountingLine: Sendable, Equatable {
    /// `K ns`: a read of the maps begins; every count in it was made before `ns`.
    case begin(time: UInt64)
    /// `k`: the read is whole.
    case end
    /// `S ns`: the gate moved (``CountingProgram/Switch``) at `ns`.
    case switched(time: UInt64)
    /// `T tid`: the thread named itself.
    case thread(Int32)
    /// `@P[…]: n`: posts so far under this key.
    case posts(CountedPost, count: UInt64)
    /// `@D[…]: n`: deliveries so far of the observer closure `function`/`context` under the post
    /// key, `born` the time of that closure's latest add when it ran (0: none seen).
    case deliveries(CountedPost, function: UInt64, context: UInt64, born: UInt64, count: UInt64)
    /// `@U[…]: n`: posts so far under this key that ran no observer.
    case unheard(CountedPost, count: UInt64)

    package init?(_ line: Substring) {
        // Most lines are event lines: told apart by their first byte alone.
        guard let first = line.utf8.first,
            first == UInt8(ascii: "@") || first == UInt8(ascii: "K") || first == UInt8(ascii: "k")
                || first == UInt8(ascii: "S") || first == UInt8(ascii: "T")
        else { return nil }
        if line == "k" {
            self = .end
            return
        }
        if line.hasPrefix("T ") {
            guard let thread = Int32(line.dropFirst(2)), thread > 0 else { return nil }
            self = .thread(thread)
            return
        }
        if line.hasPrefix("S ") {
            guard let time = UInt64(line.dropFirst(2)) else { return nil }
            self = .switched(time: time)
            return
        }
        if line.hasPrefix("K ") {
            guard let time = UInt64(line.dropFirst(2)) else { return nil }
            self = .begin(time: time)
            return
        }
        guard line.utf8.count > 4, line.hasPrefix("@"), line.dropFirst(2).hasPrefix("["),
            let close = line.firstIndex(of: "]")
        else { return nil }
        let map = line[line.index(after: line.startIndex)]
        let numbers = line[line.index(line.startIndex, offsetBy: 3)..<close].split(separator: ",").map {
            Self.number($0.drop { $0 == " " })
        }
        let rest = line[line.index(after: close)...]
        guard rest.hasPrefix(": "), let count = Self.number(rest.dropFirst(2)), !numbers.contains(nil) else {
            return nil
        }
        let values = numbers.map { $0 ?? 0 }
        switch (map, values.count) {
        case ("P", 13): self = .posts(Self.post(values), count: count)
        case ("U", 13): self = .unheard(Self.post(values), count: count)
        case ("D", 16):
            self = .deliveries(
                Self.post(values), function: values[13], context: values[14], born: values[15], count: count)
        default: return nil
        }
    }

    /// bpftrace prints 64-bit values as signed decimals.
    private static func number(_ text: Substring) -> UInt64? {
        UInt64(text) ?? Int64(text).map { UInt64(bitPattern: $0) }
    }

    private static func post(_ values: [UInt64]) -> CountedPost {
        CountedPost(
            name: CountedName(high: values[0], words: Array(values[1...8])), center: values[9], metadata: values[10],
            caller: values[11], thread: Int32(truncatingIfNeeded: values[12]))
    }
}
