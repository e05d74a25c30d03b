// libFuzzer entry point for TraceDecoder; built with the NotifyWire sources into one module by
// Fuzz/run-decoder-fuzz.sh. Besides "never crash", it checks three properties and traps if one
// fails, so libFuzzer saves the input:
//   1. splitting the input into chunks never changes the outcomes;
//   2. every decoded event re-encodes to a line that decodes to the same event;
//   3. the decoder never buffers more than the line limit plus the chunk being fed;
//   4. a line the fast path reads (CanonicalLineDecoder) decodes to the same event on the general path.

/// Decodes `bytes` fed as the given chunks, with a small line limit so oversized lines occur.
private func outcomes(_ bytes: UnsafeBufferPointer<UInt8>, splits: [Int]) -> [Result<TraceEvent, TraceDecodingError>] {
    let limit = 256
    var decoder = TraceDecoder(maximumLineLength: limit)
    var results: [Result<TraceEvent, TraceDecodingError>] = []
    func drain() {
        while true {
            do throws(TraceDecodingError) {
                guard let event = try decoder.next() else { return }
                results.append(.success(event))
            } catch {
                results.append(.failure(error))
            }
        }
    }
    var start = 0
    for end in splits + [bytes.count] where end >= start {
        let chunk = UnsafeBufferPointer(rebasing: bytes[start..<end])
        decoder.feed(chunk)
        if decoder.bufferedByteCount > limit + chunk.count + 1 {
            fatalError("buffered \(decoder.bufferedByteCount) bytes with a \(limit)-byte limit")
        }
        drain()
        start = end
    }
    decoder.finish()
    drain()
    return results
}

@_cdecl("LLVMFuzzerTestOneInput")
public func decoderFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let whole = outcomes(bytes, splits: [])
    // Split points derived from the input itself, so a crash reproduces from the saved file.
    if size > 2 {
        let first = Int(bytes[0]) * size / 256
        let second = first + (size - first) * Int(bytes[size - 1]) / 256
        let split = outcomes(bytes, splits: [first, second])
        if split.count != whole.count || zip(split, whole).contains(where: { !same($0, $1) }) {
            fatalError("chunking changed the outcomes")
        }
        let dripped = outcomes(bytes, splits: Array(stride(from: 1, to: size, by: 1)))
        if dripped.count != whole.count || zip(dripped, whole).contains(where: { !same($0, $1) }) {
            fatalError("byte-at-a-time feeding changed the outcomes")
        }
    }
    var names = StringInterner()
    var fields: [JSONField] = []
    var lineStart = 0
    for index in 0...size where index == size || bytes[index] == 0x0A {
        let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<index])
        lineStart = index + 1
        guard let fast = withUnsafeMutablePointer(to: &names, { CanonicalLineDecoder.decode(line, names: $0) }) else {
            continue
        }
        guard
            case .some(.some(let general)) = try? TraceLineDecoder.decodeScanned(
                line, lineNumber: 1, fields: &fields, names: &names), general == fast
        else { fatalError("the fast path read \(fast) from a line the general path reads otherwise") }
    }
    for case .success(let event) in whole {
        var encoded: [UInt8] = []
        TraceEncoder.encode(event, into: &encoded)
        var decoder = TraceDecoder()
        decoder.feed(encoded)
        guard case .some(.some(let again)) = try? decoder.next(), again == event else {
            fatalError("re-encoding changed \(event) into \(String(decoding: encoded, as: UTF8.self))")
        }
    }
    return 0
}

private func same(_ lhs: Result<TraceEvent, TraceDecodingError>, _ rhs: Result<TraceEvent, TraceDecodingError>) -> Bool
{
    switch (lhs, rhs) {
    case (.success(let a), .success(let b)): a == b
    case (.failure(let a), .failure(let b)): a == b
    default: false
    }
}
