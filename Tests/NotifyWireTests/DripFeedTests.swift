import Testing
import NotifyBenchmarks
import NotifyWire

/// The split points of the input never change what is decoded.
@Suite struct DripFeedTests {
    /// A stream with every kind, odd unicode, and lines that fail in each way, to show that errors
    /// are also independent of chunking.
    static let mixedStream: [UInt8] = {
        var bytes = TraceSamples.streamBytes
        bytes += Array("\n   \r\n".utf8)  // blank lines
        bytes += Array(#"{"k":"post","seq":1}"#.utf8) + [0x0A]  // missing fields
        bytes += Array("garbage that is not json\n".utf8)
        bytes += Array(String(repeating: "x", count: 300).utf8) + [0x0A]  // over the 288-byte limit below
        bytes += Array(#"{"k":"new-kind","x":[1,{"y":null}]}"#.utf8) + [0x0A]
        bytes += TraceEvent.type(TraceType(id: 1, name: "名前 🚀 \"q\" \\ \u{1}")).encoded
        bytes += TraceSamples.event(.end).encoded
        bytes += Array(#"{"k":"gap","seq":1,"t":2,"count":3,"#.utf8)  // cut off: no newline
        return bytes
    }()

    @Test("every chunking of a clean stream yields the same events", arguments: Chunking.all)
    func cleanStream(chunking: Chunking) {
        let expected = TraceSamples.stream.map(DecodeOutcome.event)
        #expect(decodeAll(TraceSamples.streamBytes, chunking: chunking) == expected)
    }

    @Test("every chunking of a damaged stream yields the same events and errors", arguments: Chunking.all)
    func damagedStream(chunking: Chunking) {
        let reference = decodeAll(Self.mixedStream, chunking: .allAtOnce, maximumLineLength: 288)
        #expect(decodeAll(Self.mixedStream, chunking: chunking, maximumLineLength: 288) == reference)
    }

    @Test("the damaged stream decodes every good line and reports each bad one by line number")
    func damagedStreamContents() {
        let outcomes = decodeAll(Self.mixedStream, maximumLineLength: 288)
        let errors = outcomes.compactMap { if case .error(let error) = $0 { error } else { nil } }
        let kinds = TraceLineKind.allCases.count
        #expect(outcomes.count == kinds + 7)
        #expect(errors.map(\.line) == [kinds + 3, kinds + 4, kinds + 5, kinds + 9])
        #expect(
            errors.map(\.reason) == [
                .missingField(kind: "post", field: "t"),
                .malformed(column: 1, problem: "expected '{' to start the line's object"),
                .lineTooLong(limit: 288),
                .truncated(bytes: 35),
            ])
        #expect(
            outcomes[kinds + 3]
                == .event(
                    .unknown(
                        TraceUnknownLine(
                            kind: "new-kind", line: #"{"k":"new-kind","x":[1,{"y":null}]}"#))))
    }

    @Test("bytes fed as a lazy sequence decode like bytes fed as an array")
    func nonContiguousSequence() {
        var decoder = TraceDecoder()
        decoder.feed(TraceSamples.streamBytes.lazy.map { $0 })
        var events: [TraceEvent] = []
        while let event = try? decoder.next() { events.append(event) }
        #expect(events == TraceSamples.stream)
    }

    @Test("a large stream in socket-sized reads decodes every event, with bounded buffering")
    func largeStream() throws {
        let events = WireBenchmark.sampleEvents(count: 20_000)
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        var decoder = TraceDecoder()
        var decoded: [TraceEvent] = []
        var offset = 0
        var peak = 0
        while offset < bytes.count {
            let end = min(offset + 65_536, bytes.count)
            decoder.feed(bytes[offset..<end])
            peak = max(peak, decoder.bufferedByteCount)
            offset = end
            while let event = try decoder.next() { decoded.append(event) }
        }
        decoder.finish()
        #expect(try decoder.next() == nil)
        #expect(decoded == events)
        #expect(peak < 65_536 + 1_024)
    }

    @Test("next() returns nil until a line is complete, then the event")
    func needsMoreBytes() throws {
        let line = TraceSamples.event(.posted).encoded
        var decoder = TraceDecoder()
        decoder.feed(line.dropLast())
        #expect(try decoder.next() == nil)
        #expect(try decoder.next() == nil)
        decoder.feed(line.suffix(1))
        #expect(try decoder.next() == TraceSamples.event(.posted))
        #expect(decoder.lineNumber == 1)
        #expect(try decoder.next() == nil)
    }

    @Test("the decoder remembers the last header")
    func remembersHeader() throws {
        var decoder = TraceDecoder()
        #expect(decoder.header == nil)
        decoder.feed(TraceSamples.streamBytes)
        while try decoder.next() != nil {}
        #expect(decoder.header == TraceSamples.header)
    }
}
