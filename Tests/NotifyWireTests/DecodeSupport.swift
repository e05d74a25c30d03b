import NotifySystem
import NotifyTestSupport
@testable import NotifyWire

/// What a decoder produced for one line: an event or an error, in stream order.
enum DecodeOutcome: Hashable, CustomStringConvertible {
    case event(TraceEvent)
    case error(TraceDecodingError)

    var description: String {
        switch self {
        case .event(let event): "event \(TraceEncoder.line(for: event))"
        case .error(let error): "error \(error)"
        }
    }
}

/// How a test splits input before feeding it: the drip-feed patterns of NIO's decoder tester.
enum Chunking: Hashable, CustomStringConvertible, Sendable {
    case oneByteAtATime
    case allAtOnce
    case random(seed: UInt64, maximum: Int)

    var description: String {
        switch self {
        case .oneByteAtATime: "one byte at a time"
        case .allAtOnce: "all at once"
        case .random(let seed, let maximum): "random chunks ≤ \(maximum) (seed \(seed))"
        }
    }

    static let all: [Chunking] = [
        .oneByteAtATime, .allAtOnce,
        .random(seed: 1, maximum: 7), .random(seed: 2, maximum: 64), .random(seed: 3, maximum: 4096),
        .random(seed: 4, maximum: 3),
    ]

    func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        switch self {
        case .allAtOnce:
            return [bytes[...]]
        case .oneByteAtATime:
            return bytes.indices.map { bytes[$0...$0] }
        case .random(let seed, let maximum):
            var random = SplitMix64(seed: seed)
            var chunks: [ArraySlice<UInt8>] = []
            var offset = 0
            while offset < bytes.count {
                let size = Int(random.next() % UInt64(maximum)) + 1
                let end = min(offset + size, bytes.count)
                chunks.append(bytes[offset..<end])
                offset = end
            }
            return chunks
        }
    }
}

/// Feeds `bytes` to `decoder` split as `chunking` says, calling `drain` after every chunk, then
/// finishes and drains once more.
func feed(
    _ bytes: [UInt8], chunking: Chunking, to decoder: inout TraceDecoder, drain: (inout TraceDecoder) -> Void
) {
    for chunk in chunking.split(bytes) {
        decoder.feed(chunk)
        drain(&decoder)
    }
    decoder.finish()
    drain(&decoder)
}

/// Feeds `bytes` split as `chunking` says, draining after every chunk, then finishes.
func decodeAll(
    _ bytes: [UInt8], chunking: Chunking = .allAtOnce,
    maximumLineLength: Int = TraceDecoder.defaultMaximumLineLength
) -> [DecodeOutcome] {
    var decoder = TraceDecoder(maximumLineLength: maximumLineLength)
    var outcomes: [DecodeOutcome] = []
    feed(bytes, chunking: chunking, to: &decoder) { decoder in
        while true {
            do throws(TraceDecodingError) {
                guard let event = try decoder.next() else { return }
                outcomes.append(.event(event))
            } catch {
                outcomes.append(.error(error))
            }
        }
    }
    return outcomes
}

/// Decodes UTF-8 text, all at once.
func decodeAll(_ text: String, maximumLineLength: Int = TraceDecoder.defaultMaximumLineLength) -> [DecodeOutcome] {
    decodeAll(Array(text.utf8), maximumLineLength: maximumLineLength)
}

/// Decodes one line that must produce exactly one outcome.
func decodeOne(_ line: String) -> DecodeOutcome? {
    let outcomes = decodeAll(line + "\n")
    return outcomes.count == 1 ? outcomes[0] : nil
}

/// The error a single line produces, or nil if it decodes.
func decodingError(_ line: String) -> TraceDecodingError? {
    if case .error(let error) = decodeOne(line) { return error }
    return nil
}

extension TraceEvent {
    /// The event's line, newline included, as bytes.
    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        TraceEncoder.encode(self, into: &bytes)
        return bytes
    }
}

/// The event the fast path reads from `line`; nil when it leaves the line to the general path.
func fastPathEvent(_ line: String) -> TraceEvent? {
    var names = StringInterner()
    return Array(line.utf8).withUnsafeBufferPointer { buffer in
        withUnsafeMutablePointer(to: &names) { CanonicalLineDecoder.decode(buffer, names: $0) }
    }
}

/// The event the general path reads from `line`, or its decoding error.
func generalPathEvent(_ line: String) throws -> TraceEvent? {
    var names = StringInterner()
    var fields: [JSONField] = []
    return try Array(line.utf8).withUnsafeBufferPointer { buffer in
        try TraceLineDecoder.decodeScanned(buffer, lineNumber: 1, fields: &fields, names: &names)
    }
}

/// Both paths' events for `line`: the fast path's (nil when it declines) and the general one's
/// (nil when it reports an error).
func bothPathEvents(_ line: String) -> (fast: TraceEvent?, general: TraceEvent?) {
    (fastPathEvent(line), (try? generalPathEvent(line)) ?? nil)
}
