import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// The leak rules that apply to typed messages, with message events: R2 (a message sequence not
/// kept), R3 (a dead subject), R5, R6, R7 (inline for main-actor, mailbox wait for async), R9
/// (abandoned only) and R10 (by type name, no near names).
@Suite struct TypedMessageRuleTests {
    static let ms = TraceScript.ms
    static let cart = "NotifyDemo.CartTotalChanged"

    @Test("R2(a): a message sequence that ended before any post was not kept")
    func messageSequenceNotKept() throws {
        var s = TraceScript()
        s.register(1, Self.cart, kind: .messageSequence, site: 10)
        s.remove(1, reason: .sequenceEnded)
        let finding = try #require(s.fold().open(.prematureRemoval).first)
        #expect(finding.key.subject == .callsite(10))
    }

    @Test("R3: a subject that died while its message observers stayed registered, as an error naming the subject")
    func deadSubject() throws {
        var s = TraceScript()
        s.register(1, Self.cart, kind: .asyncMessage, object: 7, target: .task, site: 10)
        s.remove(1, reason: .objectDeallocated)
        let finding = try #require(s.fold().open(.deadParticipant).first)
        #expect(finding.severity == .error)
        #expect(finding.key.subject == .participant(callsite: 10, sender: true))
        #expect(finding.summary.hasPrefix("subject App.Sender"))
        #expect(finding.evidence.objectFilter?.id == 7)
    }

    @Test(
        "R5: the same message type, subject and callsite registered twice with both tokens held",
        arguments: [TraceRegistrationKind.mainActorMessage, .asyncMessage, .messageSequence])
    func duplicateMessageObservers(kind: TraceRegistrationKind) throws {
        var s = TraceScript()
        s.register(1, Self.cart, kind: kind, object: 7, target: kind == .asyncMessage ? .task : .posting, site: 10)
        s.register(2, Self.cart, kind: kind, object: 7, target: kind == .asyncMessage ? .task : .posting, site: 10)
        let finding = try #require(s.fold().open(.duplicateRegistration).first)
        #expect(finding.severity == .info)
        #expect(finding.evidence.registrations == [1, 2])
    }

    @Test("R5 control: different subjects are not duplicates")
    func differentSubjects() {
        var s = TraceScript()
        s.register(1, Self.cart, kind: .asyncMessage, object: 7, target: .task, site: 10)
        s.register(2, Self.cart, kind: .asyncMessage, object: 8, target: .task, site: 10)
        #expect(s.fold().open(.duplicateRegistration).isEmpty)
    }

    @Test("R6: async message observers that pile up across checkpoints")
    func growth() throws {
        var s = TraceScript()
        for id in 1...4 {
            s.register(UInt64(id), Self.cart, kind: .asyncMessage, target: .task, site: 10)
            s.advance(2 * Self.ms)
            s.post("tick", matched: 0)
        }
        let finding = try #require(s.fold(.fastCheckpoints).open(.registrationGrowth).first)
        #expect(finding.key.subject == .nameAtCallsite(Self.cart, callsite: 10))
        #expect(finding.evidence.series == [1, 2, 3, 4])
    }

    @Test("R7: a main-actor message's observer runs inside post, so a slow one blocks the poster")
    func slowMainActorObserver() throws {
        var s = TraceScript()
        s.register(1, Self.cart, kind: .mainActorMessage, site: 10)
        let post = s.post(Self.cart, matched: 1, message: .mainActor)
        s.deliver(post, to: 1, name: Self.cart, duration: 120 * Self.ms)
        let finding = try #require(s.fold().open(.slowHandler).first)
        #expect(finding.severity == .warning)
        #expect(finding.summary.contains("on the posting path"))
    }

    @Test(
        "R7: an async observer is graded by its mailbox wait, not by its run time",
        arguments: [
            (UInt64(120) * ms, UInt64(1) * ms, LeakSeverity.warning as LeakSeverity?),
            (1 * ms, 300 * ms, nil),
        ])
    func asyncObserverMailboxWait(wait: UInt64, duration: UInt64, severity: LeakSeverity?) throws {
        var s = TraceScript()
        s.thread(3, name: "pool-1")
        s.register(1, Self.cart, kind: .asyncMessage, target: .task, site: 10)
        let post = s.post(Self.cart, matched: 1, message: .async)
        s.enqueue(post, for: 1, pending: 1)
        s.deliver(post, to: 1, name: Self.cart, thread: 3, duration: duration, wait: wait, target: .task)
        let open = s.fold().open(.slowHandler)
        #expect(open.map(\.severity) == (severity.map { [$0] } ?? []))
        if let finding = open.first {
            #expect(finding.key.subject == .callsite(10))
            #expect(finding.evidence.duration == wait)
            #expect(finding.summary.contains("waited 120.0 ms in its mailbox"))
        }
    }

    @Test("R9: a message type is never taken for a typo of a notification name, nor the reverse")
    func noTypoAcrossKinds() {
        var s = TraceScript()
        s.register(1, "Demo.CartTotalChange")
        s.post("Demo.CartTotalChanged", matched: 0, message: .async)
        s.register(2, "Demo.ThemeChanged", kind: .asyncMessage, target: .task)
        s.post("Demo.ThemeChange", matched: 0)
        let open = s.fold().open(.unheardPost)
        #expect(open.isEmpty)
    }

    @Test("R9: a message type whose observers all went away while posts go on is abandoned (info)")
    func abandonedMessageType() throws {
        var s = TraceScript()
        s.register(1, Self.cart, kind: .asyncMessage, target: .task)
        s.remove(1)
        for _ in 0..<50 { s.post(Self.cart, matched: 0, message: .async) }
        let finding = try #require(s.fold().open(.unheardPost).first)
        #expect(finding.key.subject == .name(Self.cart))
        #expect(finding.severity == .info)
    }

    @Test("R10: observers of a message type nobody posts, at info, with no near name offered")
    func neverPostedMessageType() throws {
        var s = TraceScript()
        s.register(1, "Demo.CartTotalChange", kind: .asyncMessage, target: .task)
        for _ in 0..<3 {
            s.advance(2 * Self.ms)
            s.post("Demo.CartTotalChanged", matched: 0)
        }
        s.advance(Self.ms)
        s.tick()
        let finding = try #require(s.fold(.fastCheckpoints).open(.neverPosted).first)
        #expect(finding.key.subject == .name("Demo.CartTotalChange"))
        #expect(finding.severity == .info)
        #expect(finding.evidence.nearestName == nil)
    }
}
