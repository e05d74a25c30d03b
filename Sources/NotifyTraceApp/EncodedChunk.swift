import NotifyWire

/// Lines encoded once for every viewer: their bytes, where each ends, and what each stands for.
/// The exporter fills one, queues it to each viewer in one copy, and empties it, keeping its
/// capacity.
struct EncodedChunk {
    private(set) var bytes: [UInt8] = []
    private(set) var ends: [Int] = []
    private(set) var kinds: [ViewerConnection.Line] = []

    var isEmpty: Bool { ends.isEmpty }
    var byteCount: Int { bytes.count }

    mutating func append(_ line: TraceEvent) {
        TraceEncoder.encode(line, into: &bytes)
        ends.append(bytes.count)
        kinds.append(Self.kind(of: line))
    }

    /// Appends the line `write` encodes, queued as `kind`.
    @inline(__always)
    mutating func appendLine(as kind: ViewerConnection.Line, _ write: (inout [UInt8]) -> Void) {
        write(&bytes)
        ends.append(bytes.count)
        kinds.append(kind)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
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
        case .gap(let gap) where gap.reason == .bufferFull: .required(seq: gap.seq, events: gap.count)
        case .gap(let gap): .event(seq: gap.seq, events: gap.count)
        case .thread, .end: .required(seq: line.seq, events: 0)
        default: line.seq.map { .event(seq: $0, events: 1) } ?? .required(seq: nil, events: 0)
        }
    }
}
