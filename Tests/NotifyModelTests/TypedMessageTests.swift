import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// Typed messages in the fold: message types in Names, mailbox and buffer depth and drops per
/// registration, mailbox waits per thread.
@Suite struct TypedMessageTests {
    static let ms = TraceScript.ms
    static let cart = "NotifyDemo.CartTotalChanged"

    @Test("a posted message type is a name marked with its kind; a notification name is not")
    func namesMarkMessages() throws {
        var s = TraceScript()
        s.post(Self.cart, matched: 0, message: .async)
        s.post("Demo.Main", matched: 0, message: .mainActor)
        s.post("cartDidChange", matched: 0)
        let state = s.fold()
        let cart = try #require(state.name(Self.cart))
        #expect(cart.isMessage && cart.messageKind == .async)
        #expect(state.name("Demo.Main")?.messageKind == .mainActor)
        let notification = try #require(state.name("cartDidChange"))
        #expect(!notification.isMessage && notification.messageKind == nil)
    }

    @Test(
        "an observer's kind marks its type as a message before any post; a sequence alone leaves the kind open",
        arguments: [
            (TraceRegistrationKind.mainActorMessage, TraceMessageKind.mainActor as TraceMessageKind?),
            (.asyncMessage, .async),
            (.messageSequence, nil),
        ])
    func namesFromRegistrations(kind: TraceRegistrationKind, expected: TraceMessageKind?) throws {
        var s = TraceScript()
        s.register(1, Self.cart, kind: kind, target: kind == .asyncMessage ? .task : .posting)
        let state = s.fold()
        let row = try #require(state.name(Self.cart))
        #expect(row.isMessage)
        #expect(row.messageKind == expected)
        #expect(row.liveObservers == 1)
        #expect(state.registration(1)?.isMessage == true)
        #expect(state.totals.messageRegistrations == 1)
    }

    @Test("an async observer's mailbox depth: current and deepest, down by one per run, 0 once removed")
    func mailboxDepth() throws {
        var s = TraceScript()
        s.register(1, Self.cart, kind: .asyncMessage, target: .task)
        var posts: [UInt64] = []
        for depth in 1...3 {
            let post = s.post(Self.cart, matched: 1, message: .async)
            s.enqueue(post, for: 1, pending: depth)
            posts.append(post)
        }
        s.deliver(posts[0], to: 1, name: Self.cart, thread: 2, wait: 5 * Self.ms, target: .task)
        var state = s.fold()
        var row = try #require(state.registration(1))
        #expect(row.pendingMessages == 2)
        #expect(row.maximumPendingMessages == 3)
        #expect(row.enqueuedMessages == 3)
        #expect(row.droppedMessages == 0)
        #expect(state.totals.messageEnqueues == 3)
        s.remove(1)
        state = s.fold()
        row = try #require(state.registration(1))
        #expect(row.pendingMessages == 0)
        #expect(row.maximumPendingMessages == 3)
    }

    @Test("a full sequence buffer's drops count on the registration and in the totals")
    func sequenceDrops() throws {
        var s = TraceScript()
        s.register(1, Self.cart, kind: .messageSequence)
        var posts: [UInt64] = []
        for index in 1...5 {
            let post = s.post(Self.cart, matched: 1, message: .async)
            s.enqueue(post, for: 1, pending: min(index, 2), droppedOldest: index > 2)
            posts.append(post)
        }
        var state = s.fold()
        var row = try #require(state.registration(1))
        #expect(row.droppedMessages == 3)
        #expect(row.pendingMessages == 2)
        #expect(row.maximumPendingMessages == 2)
        // The consumer reads the two the buffer kept: each read is a delivery that empties it by one.
        for post in posts.suffix(2) { s.deliver(post, to: 1, name: Self.cart) }
        state = s.fold()
        row = try #require(state.registration(1))
        #expect(row.deliveries == 2 && row.pendingMessages == 0)
        #expect(row.maximumPendingMessages == 2)
        #expect(state.totals.messagesDropped == 3)
    }

    @Test("an enqueue for a registration the viewer never saw counts as detail lost")
    func enqueueUnknownRegistration() {
        var s = TraceScript()
        let post = s.post(Self.cart, matched: 1, message: .async)
        s.enqueue(post, for: 99, pending: 1)
        let state = s.fold()
        #expect(state.detailLoss.unknownRegistrationEvents == 1)
        #expect(state.totals.messageEnqueues == 1)
    }

    @Test("mailbox waits count per delivering thread for target task only; the log knows the kind")
    func mailboxWaitPerThread() throws {
        var s = TraceScript()
        s.thread(3, name: "pool-1")
        s.register(1, Self.cart, kind: .asyncMessage, target: .task)
        s.register(2, "a", target: .dispatchQueue)
        let post = s.post(Self.cart, matched: 1, message: .async)
        s.enqueue(post, for: 1, pending: 1)
        s.deliver(post, to: 1, name: Self.cart, thread: 3, wait: 7 * Self.ms, target: .task)
        let other = s.post("a", matched: 1)
        s.deliver(other, to: 2, name: "a", thread: 2, wait: 9 * Self.ms, target: .dispatchQueue)
        let state = s.fold()
        let pool = try #require(state.thread(3))
        #expect(pool.mailboxWait.count == 1)
        #expect(pool.mailboxWait.max >= 7 * Self.ms)
        #expect(pool.recentDeliveries.first?.wait == 7 * Self.ms)
        #expect(pool.recentDeliveries.first?.registrationKind == .asyncMessage)
        #expect(state.thread(2)?.mailboxWait.count == 0)
        #expect(state.thread(2)?.recentDeliveries.first?.registrationKind == .block)
    }
}
