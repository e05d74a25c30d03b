@testable import NotifyKit
import NotifyWire
@testable import NotifyTraceApp
import Testing

/// The converter carries typed messages' probe events onto the wire: their registration kinds and
/// target, a post's message kind, and each enqueue.
@Suite struct MessageConversionTests {
    static let site = ProbeEvent.Callsite(file: #fileID, line: 7)
    static let typeName = "NotifyDemo.CartTotalChanged"

    static func registration(_ id: UInt64, _ kind: ProbeEvent.RegistrationKind, _ target: ProbeEvent.TargetKind)
        -> ProbeEvent
    {
        ProbeEvent(
            timestamp: 10, thread: NotifyThread.current.id,
            kind: .registered(
                ProbeEvent.Registration(
                    id: id, name: typeName, kind: kind, observer: nil, object: nil, target: target, targetLabel: nil,
                    callsite: site, preexisting: false, capturesObserverStrongly: false, mainThreadOnly: false,
                    tokenDropped: false, registeredAt: 10)))
    }

    @Test("message registrations keep their kind and target: no fallback to block or posting")
    func registrationKinds() {
        var converter = ProbeEventConverter()
        var lines: [TraceEvent] = []
        converter.translate(Self.registration(1, .mainActorMessage, .posting), into: &lines)
        converter.translate(Self.registration(2, .asyncMessage, .task), into: &lines)
        converter.translate(Self.registration(3, .messageSequence, .posting), into: &lines)
        let registrations = lines.compactMap { if case .registered(let value) = $0 { value } else { nil } }
        #expect(registrations.map(\.kind) == [.mainActorMessage, .asyncMessage, .messageSequence])
        #expect(registrations.map(\.target) == [.posting, .task, .posting])
    }

    @Test("every NotifyKit registration kind, target and message kind has a wire spelling")
    func everyKindHasAWireValue() {
        for kind in ProbeEvent.RegistrationKind.allCases {
            #expect(TraceRegistrationKind(rawValue: kind.rawValue) != nil, "\(kind)")
        }
        for target in ProbeEvent.TargetKind.allCases {
            #expect(TraceTargetKind(rawValue: target.rawValue) != nil, "\(target)")
        }
        for message in ProbeEvent.MessageKind.allCases {
            #expect(TraceMessageKind(rawValue: message.rawValue) != nil, "\(message)")
        }
    }

    @Test("a typed message's post carries its kind, and its enqueue becomes an enqueue line")
    func postAndEnqueue() throws {
        var converter = ProbeEventConverter()
        var lines: [TraceEvent] = []
        let thread = NotifyThread.current.id
        converter.translate(Self.registration(2, .asyncMessage, .task), into: &lines)
        var post = ProbeEvent.Post(
            postID: 12, name: Self.typeName, object: nil, hasUserInfo: false, matched: 1, depth: 1, parentPostID: 0,
            callsite: Self.site)
        post.message = .async
        converter.translate(ProbeEvent(timestamp: 20, thread: thread, kind: .posted(post)), into: &lines)
        converter.translate(
            ProbeEvent(
                timestamp: 21, thread: thread,
                kind: .messageEnqueued(
                    ProbeEvent.MessageEnqueue(postID: 12, registration: 2, pending: 3, droppedOldest: true))),
            into: &lines)
        let posted = try #require(lines.compactMap { if case .posted(let value) = $0 { value } else { nil } }.first)
        #expect(posted.message == .async)
        let enqueue = try #require(lines.compactMap { if case .enqueued(let value) = $0 { value } else { nil } }.first)
        #expect(enqueue.postID == 12 && enqueue.registration == 2 && enqueue.pending == 3 && enqueue.droppedOldest)
        #expect(enqueue.timestamp == 21 && enqueue.thread == thread)
        #expect(enqueue.seq == converter.lastSequence)
    }
}
