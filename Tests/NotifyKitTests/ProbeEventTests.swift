import Dispatch
import Foundation
import NotifyKit
import Testing

/// The events an attached probe receives: registered, posted, delivered, removed.
@Suite struct ProbeEventTests {
    /// One way to register, with what its `registered` event must say.
    enum Form: String, CaseIterable, Sendable {
        case block, blockOnDispatchQueue, blockOnOperationQueue, blockOnThread, blockOnMain, owner, target

        var kind: ProbeEvent.RegistrationKind {
            switch self {
            case .owner: .ownerBound
            case .target: .target
            default: .block
            }
        }

        var targetKind: ProbeEvent.TargetKind {
            switch self {
            case .blockOnDispatchQueue: .dispatchQueue
            case .blockOnOperationQueue: .operationQueue
            case .blockOnThread: .thread
            case .blockOnMain: .main
            default: .posting
            }
        }

        var targetLabel: String? {
            switch self {
            case .blockOnDispatchQueue: "tests.dispatch-label"
            case .blockOnOperationQueue: "tests.operation-name"
            case .blockOnThread: "tests.probe-thread"
            default: nil
            }
        }

        /// Registers on `center` and returns the line of the registering call.
        func register(on center: NotifyCenter, observer: Subject, object: Subject) -> UInt {
            switch self {
            case .block:
                _ = center.addObserver(forName: .testN, object: object, queue: nil) { _ in }; return #line
            case .blockOnDispatchQueue:
                let queue = DispatchQueue(label: "tests.dispatch-label")
                _ = center.addObserver(forName: .testN, object: object, deliverOn: .dispatchQueue(queue)) { _ in }
                return #line - 1
            case .blockOnOperationQueue:
                let queue = OperationQueue()
                queue.name = "tests.operation-name"
                _ = center.addObserver(forName: .testN, object: object, queue: queue) { _ in }; return #line
            case .blockOnThread:
                let thread = DeliveryThread(name: "tests.probe-thread")
                _ = center.addObserver(forName: .testN, object: object, deliverOn: .thread(thread)) { _ in }
                return #line - 1
            case .blockOnMain:
                _ = center.addObserver(forName: .testN, object: object, deliverOn: .main) { _ in }; return #line
            case .owner:
                center.observe(.testN, object: object, owner: observer) { _, _ in }; return #line
            case .target:
                center.addObserver(observer, action: Subject.receive, name: .testN, object: object); return #line
            }
        }
    }

    @Test(
        "registered reports kind, name, object, observer, target and the callsite of the add call",
        arguments: Form.allCases)
    func registeredEvent(_ form: Form) throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            let observer = Subject(1)
            let object = Subject(2)
            let line = form.register(on: center, observer: observer, object: object)
            let registration = try #require(probe.registrations.first)
            #expect(probe.registrations.count == 1)
            #expect(registration.kind == form.kind)
            #expect(registration.name == "N")
            #expect(registration.object?.address == address(of: object))
            #expect(registration.object?.typeName == String(reflecting: Subject.self))
            if form == .owner || form == .target {
                #expect(registration.observer?.address == address(of: observer))
            } else {
                #expect(registration.observer == nil)
            }
            #expect(registration.target == form.targetKind)
            #expect(registration.targetLabel == form.targetLabel)
            #expect(registration.callsite.file == currentFileID())
            #expect(registration.callsite.line == line)
            #expect(!registration.preexisting)
            center.removeObserver(observer)
        }
    }

    @Test("posted reports the post id, name, object, matched count, depth 1 and the callsite")
    func postedEvent() throws {
        let center = NotifyCenter()
        let object = Subject()
        let tokens = [
            center.addObserver(forName: .testN, object: nil, queue: nil) { _ in },
            center.addObserver(forName: nil, object: object, queue: nil) { _ in },
            center.addObserver(forName: .testN, object: Subject(), queue: nil) { _ in },  // different object
            center.addObserver(forName: .testM, object: nil, queue: nil) { _ in },  // different name
        ]
        try withProbe(on: center) { probe in
            probe.reset()
            center.post(name: .testN, object: object, userInfo: ["k": 1]); let line = UInt(#line)
            center.post(name: .testN)
            let posts = probe.posts
            try #require(posts.count == 2)
            #expect(posts[0].name == "N")
            #expect(posts[0].object?.address == address(of: object))
            #expect(posts[0].hasUserInfo)
            #expect(posts[0].matched == 2)
            #expect(posts[0].depth == 1)
            #expect(posts[0].parentPostID == 0)
            #expect(posts[0].callsite.file == currentFileID())
            #expect(posts[0].callsite.line == line)
            #expect(posts[1].postID > posts[0].postID)
            #expect(posts[1].object == nil)
            #expect(!posts[1].hasUserInfo)
            #expect(posts[1].matched == 1)
            let postedThreads = probe.events.compactMap { if case .posted = $0.kind { $0.thread } else { nil } }
            #expect(postedThreads == [NotifyThread.current.id, NotifyThread.current.id])
        }
        tokens.forEach { $0.cancel() }
    }

    @Test("posted's matched count leaves out registrations that were removed or whose filter died")
    func matchedCountsOnlyLiveRegistrations() throws {
        let center = NotifyCenter()
        let removed = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let kept = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        removed.cancel()  // not the newest: stays behind as a tombstone in the bucket
        // A filter whose object dies and a new object at its address.
        let deadFilter = registerDeadFilter { center.addObserver(forName: .testN, object: $0, queue: nil) { _ in } }
        try withProbe(on: center) { probe in
            center.post(name: .testN)
            #expect(probe.posts.first?.matched == 1, "a removed registration was counted")
            // A new object at the dead filter's address: matched must not count the dead filter.
            try #require(deadFilter != nil, "no new object reused the dead filter's address")
            center.post(name: .testN, object: deadFilter?.fresh.last)
            #expect(probe.posts.last?.matched == 1, "a registration whose object filter died was counted")
        }
        ([kept] + (deadFilter.map { [$0.token] } ?? [])).forEach { $0.cancel() }
    }

    @Test("delivered carries the post id, the posting and delivering threads, duration and wait")
    func deliveredEventInline() throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in usleep(2_000) }
            center.post(name: .testN)
            let post = try #require(probe.posts.first)
            let (delivery, thread) = try #require(probe.deliveries.first)
            #expect(probe.deliveries.count == 1)
            #expect(delivery.postID == post.postID)
            #expect(delivery.registration == token.registrationID)
            #expect(delivery.name == "N")
            #expect(delivery.postingThread == NotifyThread.current.id)
            #expect(thread == NotifyThread.current.id)
            #expect(delivery.target == .posting)
            #expect(delivery.duration >= 2_000_000, "a 2 ms handler reported \(delivery.duration) ns")
            #expect(delivery.duration < 1_000_000_000)
            #expect(delivery.wait == 0)
            #expect(delivery.depth == 1)
            token.cancel()
        }
    }

    @Test("a handed-off delivery reports the delivering thread and how long the hand-off waited")
    func deliveredEventHandedOff() throws {
        let center = NotifyCenter()
        let target = AsyncTarget(.dispatchQueue)
        try withProbe(on: center) { probe in
            let deliveringThread = Slot<UInt64>()
            let token = center.addObserver(forName: .testN, object: nil, deliverOn: target.target) { _ in
                deliveringThread.value = NotifyThread.current.id
            }
            let gate = target.block()
            center.post(name: .testN)
            usleep(10_000)  // the hand-off waits behind the blocked queue
            gate.signal()
            #expect(target.drain())
            let post = try #require(probe.posts.first)
            let (delivery, thread) = try #require(probe.deliveries.first)
            #expect(delivery.postID == post.postID)
            #expect(delivery.postingThread == NotifyThread.current.id)
            #expect(thread == deliveringThread.value)
            #expect(thread != NotifyThread.current.id)
            #expect(delivery.target == .dispatchQueue)
            #expect(delivery.wait >= 10_000_000, "the hand-off waited 10 ms, reported \(delivery.wait) ns")
            token.cancel()
        }
    }

    @Test("an inline delivery's duration excludes time spent in an earlier operation-queue delivery")
    func inlineDurationExcludesEarlierOperationQueueDelivery() throws {
        let center = NotifyCenter()
        let queue = OperationQueue()
        try withProbe(on: center) { probe in
            let slow = center.addObserver(forName: .testN, object: nil, queue: queue) { _ in usleep(50_000) }
            let fast = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
            center.post(name: .testN)
            let fastDelivery = try #require(probe.deliveries.first { $0.delivery.registration == fast.registrationID })
            let slowDelivery = try #require(probe.deliveries.first { $0.delivery.registration == slow.registrationID })
            #expect(slowDelivery.delivery.duration >= 50_000_000)
            #expect(
                fastDelivery.delivery.duration < 25_000_000,
                "an empty handler was charged \(fastDelivery.delivery.duration) ns, the queued handler's time")
            [slow, fast].forEach { $0.cancel() }
        }
    }

    @Test(
        "removed reports why each registration ended",
        arguments: [ProbeEvent.RemovalReason.explicit, .tokenCancelled, .observerDeallocated, .objectDeallocated])
    func removedReasons(_ reason: ProbeEvent.RemovalReason) throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            switch reason {
            case .explicit:
                let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
                center.removeObserver(token)
            case .tokenCancelled:
                center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }.cancel()
            case .observerDeallocated:
                var owner: Subject? = Subject()
                center.observe(.testN, owner: owner!) { _, _ in }
                owner = nil
                center.post(name: .testN)
            case .objectDeallocated:
                var filter: Subject? = Subject()
                let deadID = ObjectIdentifier(filter!)
                _ = center.addObserver(forName: .testN, object: filter, queue: nil) { _ in }
                let (fresh, reused) = allocateSubjects(untilReusing: deadID, afterReleasing: { filter = nil })
                // A probed post ends a dead filter's registration whatever object it carries.
                center.post(name: .testN, object: reused ? fresh.last : nil)
            case .sequenceEnded, .centerDeallocated:
                Issue.record("not exercised here")
            }
            let id = try #require(probe.registrations.first?.id)
            #expect(probe.removals.map(\.registration) == [id])
            #expect(probe.removals.map(\.reason) == [reason])
            #expect(center.registrationCount == 0)
        }
    }

    @Test("a post made inside a handler has depth 2 and the outer post as its parent")
    func nestedPostDepth() throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            let outer = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in center.post(name: .testM) }
            let inner = center.addObserver(forName: .testM, object: nil, queue: nil) { _ in }
            center.post(name: .testN)
            center.post(name: .testM)
            let posts = probe.posts
            try #require(posts.count == 3)
            #expect(posts.map(\.name) == ["N", "M", "M"])
            #expect(posts.map(\.depth) == [1, 2, 1])
            #expect(posts[1].parentPostID == posts[0].postID)
            #expect(posts[2].parentPostID == 0)
            let innerDeliveries = probe.deliveries.filter { $0.delivery.registration == inner.registrationID }
            #expect(innerDeliveries.map(\.delivery.depth) == [2, 1])
            #expect(innerDeliveries.map(\.delivery.postID) == [posts[1].postID, posts[2].postID])
            [outer, inner].forEach { $0.cancel() }
        }
    }

    @Test("a probe attached late first receives every live registration, marked preexisting, in order")
    func lateAttachSnapshot() throws {
        let center = NotifyCenter()
        let owner = Subject()
        let first = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let removed = center.addObserver(forName: nil, object: nil, queue: nil) { _ in }
        center.observe(.testM, owner: owner) { _, _ in }
        center.addObserver(owner, action: Subject.receive, name: nil, object: nil)
        removed.cancel()
        try withProbe(on: center) { probe in
            let newer = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
            let registrations = probe.registrations
            try #require(registrations.count == 4)
            #expect(registrations.map(\.preexisting) == [true, true, true, false])
            #expect(registrations.map(\.kind) == [.block, .ownerBound, .target, .block])
            #expect(registrations.map(\.name) == ["N", "M", nil, "N"])
            #expect(!registrations.map(\.id).contains(removed.registrationID))
            #expect(registrations.first?.id == first.registrationID)
            #expect(registrations.last?.id == newer.registrationID)
            let registeredFirst = probe.events.prefix(3).allSatisfy {
                if case .registered(let r) = $0.kind { r.preexisting } else { false }
            }
            #expect(registeredFirst)
            newer.cancel()
        }
        first.cancel()
        center.removeObserver(owner)
    }

    @Test("detaching, or releasing the attachment, stops events", arguments: [true, false])
    func detachStopsEvents(_ explicitly: Bool) {
        let center = NotifyCenter()
        let probe = InMemoryProbe()
        var attachment: NotifyProbeAttachment? = center.attach(probe)
        #expect(center.isProbed)
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        center.post(name: .testN)
        let before = probe.events.count
        #expect(before == 3)  // registered, posted, delivered
        if explicitly { attachment?.detach() } else { attachment = nil }
        #expect(!center.isProbed)
        center.post(name: .testN)
        token.cancel()
        _ = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        #expect(probe.events.count == before)
        withExtendedLifetime(attachment) {}
    }

    @Test("two probes both receive events; detaching one leaves the other attached")
    func twoProbes() {
        let center = NotifyCenter()
        let first = InMemoryProbe()
        let second = InMemoryProbe()
        let firstAttachment = center.attach(first)
        let secondAttachment = center.attach(second)
        center.post(name: .testN)
        firstAttachment.detach()
        center.post(name: .testM)
        #expect(first.posts.map(\.name) == ["N"])
        #expect(second.posts.map(\.name) == ["N", "M"])
        #expect(center.isProbed)
        secondAttachment.detach()
        #expect(!center.isProbed)
    }

    @Test("capturesObserverStrongly is true for a handler that captures only its owner")
    func capturesOwnerDetected() throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            let owner = Subject()
            center.observe(.testN, owner: owner) { _, _ in owner.touch() }
            let registration = try #require(probe.registrations.first)
            #expect(registration.capturesObserverStrongly, "a handler capturing its owner was not flagged")
            center.removeObserver(owner)
        }
    }

    @Test("capturesObserverStrongly is false for handlers that do not capture their owner")
    func nonCapturingHandlersNotFlagged() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let owner = Subject()
            let other = Subject()
            center.observe(.testN, owner: owner) { owner, _ in owner.touch() }
            center.observe(.testN, owner: owner) { _, _ in other.touch() }
            center.addObserver(owner, action: Subject.receive, name: .testN, object: nil)
            #expect(probe.registrations.count == 3)
            #expect(probe.registrations.allSatisfy { !$0.capturesObserverStrongly })
            center.removeObserver(owner)
        }
    }
}

@Suite("Checkpoints")
struct CheckpointTests {
    @Test("a checkpoint reaches probes with its label and callsite, and costs nothing unprobed")
    func checkpointIsAnEvent() {
        let center = NotifyCenter()
        center.checkpoint("before any probe")
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        let line: UInt = #line + 1
        center.checkpoint("cart screen closed")
        attachment.detach()
        center.checkpoint("after detaching")
        let checkpoints = probe.events.compactMap { event -> (String, ProbeEvent.Callsite)? in
            if case .checkpoint(let label, let callsite) = event.kind { return (label, callsite) }
            return nil
        }
        #expect(checkpoints.map(\.0) == ["cart screen closed"])
        #expect(checkpoints.first?.1.line == line)
        #expect(checkpoints.first?.1.file.hasSuffix("ProbeEventTests.swift") == true)
    }
}
