import Testing
import NotifyWire

/// Decoding onto the end of an array gives what `next()` gives, line for line, with each event's
/// summary (kind, number, time) alongside.
@Suite struct AppendingDecodeTests {
    /// Feeds `bytes` as `chunking` says and drains with `next(appendingTo:)` into one array that
    /// already holds an event, recording each outcome and the summary given with each event.
    static func decodeAppending(_ bytes: [UInt8], chunking: Chunking) -> (
        outcomes: [DecodeOutcome], summaries: [TraceEventSummary], kept: [TraceEvent]
    ) {
        var decoder = TraceDecoder(maximumLineLength: 288)
        let first = TraceSamples.event(.checkpoint)
        var events = [first]
        var outcomes: [DecodeOutcome] = []
        var summaries: [TraceEventSummary] = []
        feed(bytes, chunking: chunking, to: &decoder) { decoder in
            while true {
                let before = events.count
                do throws(TraceDecodingError) {
                    guard try decoder.next(appendingTo: &events) else {
                        #expect(events.count == before)
                        return
                    }
                    #expect(events.count == before + 1)
                    outcomes.append(.event(events[before]))
                    summaries.append(decoder.lastSummary)
                } catch {
                    #expect(events.count == before, "a failed line appends nothing")
                    outcomes.append(.error(error))
                }
            }
        }
        return (outcomes, summaries, events)
    }

    @Test("every chunking gives next()'s events and errors, in order", arguments: Chunking.all)
    func sameAsNext(chunking: Chunking) {
        let expected = decodeAll(DripFeedTests.mixedStream, chunking: .allAtOnce, maximumLineLength: 288)
        let (outcomes, _, kept) = Self.decodeAppending(DripFeedTests.mixedStream, chunking: chunking)
        #expect(outcomes == expected)
        #expect(kept.first == TraceSamples.event(.checkpoint), "what the array held stays")
        #expect(kept.count == 1 + expected.filter { if case .event = $0 { true } else { false } }.count)
    }

    @Test("each event's summary is its kind, number and time, on the fast path and the general one")
    func summaries() {
        // The samples take the general path for header and definitions and the fast one for the
        // encoder's hot lines; an unknown kind has no summary kind.
        let (outcomes, summaries, _) = Self.decodeAppending(DripFeedTests.mixedStream, chunking: .allAtOnce)
        let events = outcomes.compactMap { if case .event(let event) = $0 { event } else { nil } }
        #expect(summaries.count == events.count)
        for (event, summary) in zip(events, summaries) {
            #expect(summary == TraceEventSummary(kind: event.kind, seq: event.seq, timestamp: event.timestamp))
        }
        #expect(summaries.contains { $0.kind == .delivered && $0.seq != nil })
        #expect(summaries.contains { $0.kind == .header && $0.seq == nil })
        #expect(summaries.contains { $0.kind == nil })
    }

    @Test("the header read by the appending path is the decoder's header")
    func headerIsKept() {
        var decoder = TraceDecoder()
        decoder.feed(TraceSamples.streamBytes)
        var events: [TraceEvent] = []
        while (try? decoder.next(appendingTo: &events)) == true {}
        #expect(decoder.header == TraceSamples.header)
        #expect(events == TraceSamples.stream)
    }
}
