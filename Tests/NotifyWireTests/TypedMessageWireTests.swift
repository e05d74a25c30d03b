import NotifyWire
import Testing

/// Format 1.2: typed messages on the wire. Their registrations' kinds and target, a post's
/// message kind, and the `enqueue` line, on both decoding paths; a notification's lines keep
/// their 1.1 bytes, and 1.1 lines still read.
@Suite("Typed messages on the wire (format 1.2)")
struct TypedMessageWireTests {
    static let typeName = "NotifyDemo.CartTotalChanged"

    static func post(_ message: TraceMessageKind?, seq: UInt64 = 3) -> TraceEvent {
        .posted(
            TracePost(
                seq: seq, timestamp: 1_000, thread: 1, postID: 12, name: typeName, object: 7, hasUserInfo: false,
                matched: 2, depth: 1, parentPostID: 0, callsite: 5, message: message))
    }

    static func registration(_ kind: TraceRegistrationKind, target: TraceTargetKind) -> TraceEvent {
        .registered(
            TraceRegistration(
                seq: 2, timestamp: 900, thread: 1, id: 8, name: typeName, kind: kind, observer: nil, object: 7,
                target: target, targetLabel: nil, callsite: 2, preexisting: false, capturesObserverStrongly: false))
    }

    static let events: [TraceEvent] = [
        registration(.mainActorMessage, target: .posting),
        registration(.asyncMessage, target: .task),
        registration(.messageSequence, target: .posting),
        post(.mainActor, seq: 4),
        post(.async, seq: 5),
        .enqueued(
            TraceMessageEnqueue(
                seq: 6, timestamp: 1_100, thread: 1, postID: 12, registration: 8, pending: 1, droppedOldest: false)),
        .enqueued(
            TraceMessageEnqueue(
                seq: 7, timestamp: 1_200, thread: 2, postID: UInt64.max, registration: 9, pending: Int.max,
                droppedOldest: true)),
        .delivered(
            TraceDelivery(
                seq: 8, timestamp: 2_000, thread: 3, postID: 12, registration: 8, name: typeName, postingThread: 1,
                target: .task, start: 1_500, duration: 500, wait: 400, depth: 0)),
    ]

    @Test("every typed message line decodes to its event, on the fast path and on the general path")
    func bothPaths() {
        for event in Self.events {
            let line = TraceEncoder.line(for: event)
            #expect(decodeOne(line) == .event(event), "\(line)")
            // A leading space sends the line to the general path.
            #expect(decodeOne(" " + line) == .event(event), "\(line)")
        }
    }

    @Test("a typed message's post carries its kind last; a notification's post has no message key")
    func postLines() {
        #expect(TraceEncoder.line(for: Self.post(.async)).hasSuffix(#","callsite":5,"message":"async"}"#))
        #expect(TraceEncoder.line(for: Self.post(.mainActor)).hasSuffix(#","message":"main"}"#))
        #expect(!TraceEncoder.line(for: Self.post(nil)).contains("message"))
    }

    @Test("the enqueue line's exact bytes")
    func enqueueLine() {
        let line = TraceEncoder.line(
            for: .enqueued(
                TraceMessageEnqueue(
                    seq: 6, timestamp: 1_100, thread: 1, postID: 12, registration: 8, pending: 4, droppedOldest: true)))
        #expect(
            line
                == #"{"k":"enqueue","seq":6,"t":1100,"thread":1,"postID":12,"registration":8,"pending":4,"droppedOldest":true}"#
        )
    }

    @Test("a post line without the message key, as 1.1 wrote it, reads as a notification")
    func olderPostReads() {
        let line =
            #"{"k":"post","seq":3,"t":1000,"thread":1,"postID":12,"name":"n","object":null,"hasUserInfo":false,"matched":0,"depth":1,"parentPostID":0,"callsite":5}"#
        guard case .event(.posted(let post)) = decodeOne(line) else {
            Issue.record("not a post")
            return
        }
        #expect(post.message == nil)
        guard case .event(.posted(let spaced)) = decodeOne(#"{"k":"post", "message":null"# + line.dropFirst(11)) else {
            Issue.record("not a post")
            return
        }
        #expect(spaced.message == nil)
    }

    @Test("an unknown message kind is an error for that line alone, naming the field")
    func unknownMessageKind() {
        let line = TraceEncoder.line(for: Self.post(.async)).replacing("async", with: "later")
        guard case .error(let error) = decodeOne(line) else {
            Issue.record("decoded \(line)")
            return
        }
        #expect(error.reason == .invalidValue(kind: "post", field: "message", value: #""later""#))
    }

    @Test("an enqueue line missing droppedOldest is an error naming the field")
    func enqueueMissingField() {
        let line = #"{"k":"enqueue","seq":6,"t":1100,"thread":1,"postID":12,"registration":8,"pending":4}"#
        guard case .error(let error) = decodeOne(line) else {
            Issue.record("decoded \(line)")
            return
        }
        #expect(error.description.contains("droppedOldest"))
    }
}
