import NotifyWire
import Testing

/// The decoder reads lines in the encoder's exact shape on a fast path and everything else on the
/// general one. A leading space is valid JSON whitespace that only the general path accepts, so
/// decoding each line with and without one compares the two paths.
@Suite("Decoder fast path")
struct FastPathTests {
    static let longName = "com.example.cart.CartDidChangeNotification"

    /// Events of the kinds the fast path reads, with the values at its edges.
    static let events: [TraceEvent] = [
        .delivered(
            TraceDelivery(
                seq: 1, timestamp: 0, thread: 1, postID: 11, registration: 4, name: longName, postingThread: 2,
                target: .dispatchQueue, start: UInt64.max, duration: 10_000_000_000_000_000_000, wait: 0, depth: 0)),
        .delivered(
            TraceDelivery(
                seq: 2, timestamp: 5, thread: 1, postID: 11, registration: 4, name: "naïve \u{1F600} \"quoted\"\n",
                postingThread: 2, target: .posting, start: 1, duration: 2, wait: 3, depth: -1)),
        .posted(
            TracePost(
                seq: 3, timestamp: 9, thread: 1, postID: 12, name: longName, object: nil, hasUserInfo: true,
                matched: 999_999_999_999_999_999, depth: 1, parentPostID: 0, callsite: 5)),
        .posted(
            TracePost(
                seq: 4, timestamp: 9, thread: 1, postID: 13, name: "", object: 0, hasUserInfo: false,
                matched: Int.max, depth: Int.min, parentPostID: 12, callsite: 5)),
        .registered(
            TraceRegistration(
                seq: 5, timestamp: 10, thread: 1, id: 4, name: nil, kind: .block, observer: nil, object: 7,
                target: .operationQueue, targetLabel: "sync queue", callsite: 2, preexisting: true,
                capturesObserverStrongly: true, mainThreadOnly: true)),
        .registered(
            TraceRegistration(
                seq: 6, timestamp: 11, thread: 1, id: 5, name: longName, kind: .ownerBound, observer: 9, object: nil,
                target: .posting, targetLabel: nil, callsite: 2, preexisting: false, capturesObserverStrongly: false)),
        .removed(TraceRemoval(seq: 7, timestamp: 12, thread: 1, registration: 4, reason: .tokenCancelled)),
        .queue(
            TraceQueueActivity(
                seq: 8, timestamp: 13, thread: 1, queueID: 1, action: .coalesced,
                name: longName, style: nil, count: 2, pending: 0)),
        .queue(
            TraceQueueActivity(
                seq: 9, timestamp: 14, thread: 1, queueID: 1, action: .enqueued, name: nil,
                style: "asap", count: -3, pending: 1)),
        .object(TraceObject(id: 7, type: 3, address: 0)),
        .object(TraceObject(id: 8, type: 3, address: UInt64.max)),
    ]

    @Test("every line in the encoder's shape decodes to the event it was encoded from, as on the general path")
    func sameEventsOnBothPaths() {
        for event in Self.events + TraceLineKind.allCases.map(TraceSamples.event) {
            let line = TraceEncoder.line(for: event)
            #expect(decodeOne(line) == .event(event), "\(line)")
            #expect(decodeOne(" " + line) == .event(event), "\(line)")
        }
    }

    @Test("a name repeated over many lines decodes to equal strings each time, among other names")
    func repeatedNames() {
        var bytes: [UInt8] = []
        var expected: [TraceEvent] = []
        for index in 0..<5_000 {
            let name = "com.example.screen\(index % 700).didChange"
            let event = TraceEvent.posted(
                TracePost(
                    seq: UInt64(index + 1), timestamp: 1, thread: 1, postID: UInt64(index + 1), name: name, object: nil,
                    hasUserInfo: false, matched: 0, depth: 1, parentPostID: 0, callsite: 1))
            expected.append(event)
            TraceEncoder.encode(event, into: &bytes)
        }
        #expect(decodeAll(bytes, chunking: .random(seed: 9, maximum: 4096)) == expected.map(DecodeOutcome.event))
    }

    @Test(
        "lines in the encoder's shape with a value it never writes read as on the general path, errors included",
        arguments: [
            #"{"k":"deliver","seq":01,"t":1,"thread":1,"postID":1,"registration":1,"name":"n","postingThread":1,"target":"posting","start":1,"duration":1,"wait":1,"depth":1}"#,
            #"{"k":"deliver","seq":-0,"t":1,"thread":1,"postID":1,"registration":1,"name":"n","postingThread":1,"target":"posting","start":1,"duration":1,"wait":1,"depth":1}"#,
            #"{"k":"deliver","seq":1,"t":1,"thread":1,"postID":1,"registration":1,"name":"n","postingThread":1,"target":"teleport","start":1,"duration":1,"wait":1,"depth":1}"#,
            #"{"k":"deliver","seq":1,"t":1,"thread":1,"postID":1,"registration":1,"name":"n","postingThread":1,"target":"posting","start":1,"duration":1,"wait":1,"depth":1.5}"#,
            #"{"k":"post","seq":1,"t":1,"thread":1,"postID":1,"name":"tab"# + "\t"
                + #"in","object":null,"hasUserInfo":false,"matched":0,"depth":1,"parentPostID":0,"callsite":1}"#,
            #"{"k":"post","seq":1,"t":1,"thread":1,"postID":1,"name":"n","object":null,"hasUserInfo":nope,"matched":0,"depth":1,"parentPostID":0,"callsite":1}"#,
            #"{"k":"remove","seq":1,"t":1,"thread":1,"registration":99999999999999999999,"reason":"explicit"}"#,
            #"{"k":"obj","id":1,"type":1,"addr":"0x12345678901234567"}"#,
            #"{"k":"obj","id":1,"type":1,"addr":"0xfg"}"#,
            #"{"k":"remove","seq":1,"t":1,"thread":1,"registration":1,"reason":"explicit"}}"#,
        ])
    func sameOutcomes(line: String) throws {
        let fast = try #require(decodeOne(line))
        let general = try #require(decodeOne(" " + line))
        switch (fast, general) {
        case (.error(let error), .error(let expected)):
            if case .malformed(let column, let problem) = expected.reason {
                #expect(error.reason == .malformed(column: column - 1, problem: problem))
            } else {
                #expect(error.reason == expected.reason)
            }
        default:
            #expect(fast == general)
        }
    }
}
