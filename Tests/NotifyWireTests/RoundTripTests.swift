import Testing
import NotifyWire

@Suite struct RoundTripTests {
    @Test("every kind decodes back to the event it was encoded from", arguments: TraceLineKind.allCases)
    func roundTripsEveryKind(kind: TraceLineKind) {
        let event = TraceSamples.event(kind)
        #expect(decodeAll(event.encoded) == [.event(event)])
    }

    @Test("optional fields round trip both present and null")
    func roundTripsOptionals() {
        let events: [TraceEvent] = [
            .registered(
                TraceRegistration(
                    seq: 1, timestamp: 2, thread: 3, id: 4, name: nil, kind: .block, observer: nil, object: 99,
                    target: .dispatchQueue, targetLabel: "com.example.sync", callsite: 5, preexisting: true,
                    capturesObserverStrongly: true)),
            .posted(
                TracePost(
                    seq: 2, timestamp: 3, thread: 4, postID: 5, name: "n", object: 8, hasUserInfo: false,
                    matched: 0, depth: 3, parentPostID: 4, callsite: 6)),
            .removeMissed(TraceMissedRemoval(seq: 3, timestamp: 4, thread: 5, observer: 6, name: nil, callsite: 7)),
            .queue(
                TraceQueueActivity(
                    seq: 4, timestamp: 5, thread: 6, queueID: 7, action: .flushed, name: nil,
                    style: "idle", count: 3, pending: 0)),
        ]
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        #expect(decodeAll(bytes) == events.map(DecodeOutcome.event))
    }

    @Test("every enumeration value round trips with NotifyKit's spelling")
    func roundTripsEveryEnumValue() {
        var events: [TraceEvent] = []
        for kind in TraceRegistrationKind.allCases {
            for target in TraceTargetKind.allCases {
                events.append(
                    .registered(
                        TraceRegistration(
                            seq: 1, timestamp: 1, thread: 1, id: 1, name: "x", kind: kind, observer: 1, object: nil,
                            target: target, targetLabel: nil, callsite: 1, preexisting: false,
                            capturesObserverStrongly: false)))
            }
        }
        for reason in TraceRemovalReason.allCases {
            events.append(.removed(TraceRemoval(seq: 1, timestamp: 1, thread: 1, registration: 1, reason: reason)))
        }
        for action in TraceQueueAction.allCases {
            events.append(
                .queue(
                    TraceQueueActivity(
                        seq: 1, timestamp: 1, thread: 1, queueID: 1, action: action,
                        name: "x", style: "asap", count: 1, pending: 1)))
        }
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        #expect(decodeAll(bytes) == events.map(DecodeOutcome.event))
        let text = String(decoding: bytes, as: UTF8.self)
        for spelling in [
            "\"owner\"", "\"operation-queue\"", "\"dispatch-queue\"", "\"token-cancelled\"",
            "\"observer-deallocated\"", "\"object-deallocated\"", "\"sequence-ended\"",
            "\"message-main\"", "\"message-async\"", "\"message-sequence\"", "\"task\"",
        ] {
            #expect(text.contains(spelling))
        }
    }

    @Test("extreme integers round trip", arguments: [UInt64.min, 1, 9, 10, 99, 1 << 32, UInt64.max - 1, UInt64.max])
    func roundTripsExtremeIntegers(value: UInt64) {
        let events: [TraceEvent] = [
            .delivered(
                TraceDelivery(
                    seq: value, timestamp: value, thread: value, postID: value, registration: value,
                    name: "n", postingThread: value, target: .main, start: value, duration: value,
                    wait: value, depth: Int(truncatingIfNeeded: value))),
            .object(TraceObject(id: value, type: value, address: value)),
            .gap(TraceGap(seq: value, timestamp: value, count: value, reason: "viewer-behind")),
        ]
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        #expect(decodeAll(bytes) == events.map(DecodeOutcome.event))
    }

    @Test("signed fields round trip their whole range", arguments: [Int.min, -1, 0, Int.max])
    func roundTripsSignedIntegers(value: Int) {
        let post = TraceEvent.posted(
            TracePost(
                seq: 1, timestamp: 1, thread: 1, postID: 1, name: "n", object: nil,
                hasUserInfo: false, matched: value, depth: value, parentPostID: 0,
                callsite: 1))
        let thread = TraceEvent.thread(
            TraceThread(
                seq: 1, timestamp: 1, id: 1, systemID: Int32(truncatingIfNeeded: value),
                name: "t", isMain: false))
        #expect(decodeAll(post.encoded + thread.encoded) == [.event(post), .event(thread)])
    }

    @Test("an unknown kind decodes as an unknown line and re-encodes byte for byte")
    func unknownKindPassesThrough() {
        let line = #"{"k":"sample","seq":9,"t":10,"stack":["a","b"],"cpu":0.25}"#
        guard case .event(let event) = decodeOne(line) else {
            Issue.record("expected an event")
            return
        }
        #expect(event == .unknown(TraceUnknownLine(kind: "sample", line: line)))
        #expect(event.kind == nil && event.seq == nil)
        #expect(TraceEncoder.line(for: event) == line)
    }

    @Test(
        "seq and timestamp are exposed for events and nil for the header, definitions and history",
        arguments: TraceLineKind.allCases)
    func stampAccessors(kind: TraceLineKind) {
        let event = TraceSamples.event(kind)
        let isEvent = ![.header, .type, .object, .callsite, .center, .history, .siteCount].contains(kind)
        #expect((event.seq != nil) == isEvent)
        #expect((event.timestamp != nil) == isEvent)
        #expect(event.kind == kind)
    }
}
