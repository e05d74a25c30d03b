import NotifyWire

/// Lines encoded once for every viewer: their bytes, where each ends, and what each stands for.
/// The exporter fills one, queues it to each viewer in one copy, and empties it, keeping its
/// capacity.
struct EncodedChunk {
    /// The lines' bytes are `storage[..<byteCount]`; the rest is room for the next line.
    private var storage: [UInt8] = []
    private(set) var byteCount = 0
    private(set) var ends: [Int] = []
    private(set) var kinds: [ViewerConnection.Line] = []
    /// A general line's bytes on their way into `storage`.
    private var scratch: [UInt8] = []

    var isEmpty: Bool { ends.isEmpty }
    var bytes: ArraySlice<UInt8> { storage[..<byteCount] }

    mutating func append(_ line: TraceEvent) {
        var encoded: [UInt8] = []
        swap(&encoded, &scratch)
        defer { swap(&encoded, &scratch) }
        encoded.removeAll(keepingCapacity: true)
        TraceEncoder.encode(line, into: &encoded)
        appendLine(bound: encoded.count, as: Self.kind(of: line)) { start in
            encoded.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: $0.count) }
            return encoded.count
        }
    }

    /// Appends the line `write` writes at the pointer it is given, which has room for `bound`
    /// bytes, returning the bytes written; queued as `kind`.
    @inline(__always)
    mutating func appendLine(
        bound: Int, as kind: ViewerConnection.Line, _ write: (UnsafeMutablePointer<UInt8>) -> Int
    ) {
        if storage.count - byteCount < bound { makeRoom(for: bound) }
        let start = byteCount
        byteCount += storage.withUnsafeMutableBufferPointer { write($0.baseAddress! + start) }
        ends.append(byteCount)
        kinds.append(kind)
    }

    @inline(never)
    private mutating func makeRoom(for bound: Int) {
        storage.append(contentsOf: repeatElement(0, count: max(bound, storage.count, 1 << 12)))
    }

    mutating func removeAll() {
        byteCount = 0
        ends.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
    }

    /// How a live line is queued: definitions (and any line without a number) always, events only
    /// when they fit.
    static func kind(of line: TraceEvent) -> ViewerConnection.Line {
        switch line {
        case .posted(let post): .event(seq: post.seq, events: 1)
        case .delivered(let delivery): .event(seq: delivery.seq, events: 1)
        // The ring's loss reaches every viewer under its own cause, even one that is behind.
        case .gap(let gap) where gap.reason == .bufferFull: .ringGap(seq: gap.seq, events: gap.count)
        case .gap(let gap): .event(seq: gap.seq, events: gap.count)
        case .thread, .end: .required(seq: line.seq, events: 0)
        default: line.seq.map { .event(seq: $0, events: 1) } ?? .required(seq: nil, events: 0)
        }
    }
}
