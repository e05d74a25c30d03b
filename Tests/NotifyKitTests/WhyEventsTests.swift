import Foundation
import NotifyKit
import Testing

private final class Document: Sendable {}
private final class Screen: Sendable {}

/// What a center reports for explaining a missed delivery: the call that ended a registration,
/// the death of an object filter, and the enqueues a queue merged into a post.
@Suite("Events that explain a missed delivery")
struct WhyEventsTests {
    private static let name = Notification.Name("why")

    private func removal(of id: UInt64, in probe: InMemoryProbe) -> (ProbeEvent.RemovalReason, ProbeEvent.Callsite?)? {
        for event in probe.events {
            if case .removed(id, let reason, let callsite) = event.kind { return (reason, callsite) }
        }
        return nil
    }

    @Test("cancel() and removeObserver report their call's site; an owner's death and a sequence's end none")
    func removalSites() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let cancelled = center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in }
            let byToken = center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in }
            var screen: Screen? = Screen()
            let owned = center.observe(Self.name, owner: screen!) { _, _ in }
            let cancelLine: UInt = #line + 1
            cancelled.cancel()
            let removeLine: UInt = #line + 1
            center.removeObserver(byToken)
            screen = nil
            center.post(name: Self.name)
            #expect(removal(of: cancelled.registrationID, in: probe)?.0 == .tokenCancelled)
            #expect(removal(of: cancelled.registrationID, in: probe)?.1?.line == cancelLine)
            #expect(removal(of: cancelled.registrationID, in: probe)?.1?.file == "NotifyKitTests/WhyEventsTests.swift")
            #expect(removal(of: byToken.registrationID, in: probe)?.0 == .explicit)
            #expect(removal(of: byToken.registrationID, in: probe)?.1?.line == removeLine)
            #expect(removal(of: owned.registrationID, in: probe)?.0 == .observerDeallocated)
            #expect(removal(of: owned.registrationID, in: probe)?.1 == nil)
            withExtendedLifetime(owned) {}
        }
    }

    @Test("a typed message token removed names the call; one released ends with no site")
    @MainActor
    func messageTokenSites() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let removed = center.addObserver(for: Tapped.self) { _ in }
            let removeLine: UInt = #line + 1
            center.removeObserver(removed)
            _ = center.addObserver(for: Tapped.self) { _ in }
            let ends = probe.events.compactMap { event -> (ProbeEvent.RemovalReason, ProbeEvent.Callsite?)? in
                if case .removed(_, let reason, let callsite) = event.kind { (reason, callsite) } else { nil }
            }
            #expect(ends.count == 2)
            #expect(ends.first?.0 == .explicit && ends.first?.1?.line == removeLine)
            #expect(ends.last?.0 == .tokenCancelled && ends.last?.1 == nil)
        }
    }

    @Test("a dead object filter is reported once: by a post, just before its removal, or by a look, which ends nothing")
    func objectFilterDeath() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            var foundByPost: Document? = Document()
            var foundByLook: Document? = Document()
            let byPost = center.addObserver(forName: Self.name, object: foundByPost, queue: nil) { _ in }
            let byLook = center.addObserver(forName: Notification.Name("other"), object: foundByLook, queue: nil) {
                _ in
            }
            center.lookForDeadObjectFilters()
            let lookedAt = probe.events.last?.timestamp ?? 0
            foundByPost = nil
            foundByLook = nil
            center.post(name: Self.name)
            center.lookForDeadObjectFilters()
            center.lookForDeadObjectFilters()
            let events = probe.events
            func index(_ matches: (ProbeEvent.Kind) -> Bool) -> [Int] {
                events.indices.filter { matches(events[$0].kind) }
            }
            let postDeath = index { if case .objectDead(byPost.registrationID, _) = $0 { true } else { false } }
            let postEnd = index {
                if case .removed(byPost.registrationID, .objectDeallocated, nil) = $0 { true } else { false }
            }
            #expect(postDeath.count == 1 && postEnd.count == 1)
            #expect(postDeath.first.map { $0 + 1 } == postEnd.first, "the death comes just before the removal")
            let lookDeath = index { if case .objectDead(byLook.registrationID, _) = $0 { true } else { false } }
            #expect(lookDeath.count == 1, "reported once, though looked at twice")
            #expect(index { if case .removed(byLook.registrationID, _, _) = $0 { true } else { false } }.isEmpty)
            for at in postDeath + lookDeath {
                guard case .objectDead(_, let aliveAt) = events[at].kind else { continue }
                #expect(aliveAt >= lookedAt && aliveAt <= events[at].timestamp)
            }
            withExtendedLifetime(byLook) {}
        }
    }

    @Test("a look reports only instance filters that died on live registrations, in registration order")
    func lookSkipsWhatCannotDie() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            var first: Document? = Document()
            var second: Document? = Document()
            var removed: Document? = Document()
            let other = Notification.Name("other")
            let tokens = [
                center.addObserver(forName: other, object: nil, queue: nil) { _ in },
                center.addObserver(forName: other, object: first, queue: nil) { _ in },
                center.addObserver(forName: nil, object: second, queue: nil) { _ in },
            ]
            let valueFiltered = center.addObserver(forName: other, object: 42 as AnyHashable, queue: nil) { _ in }
            let ended = center.addObserver(forName: other, object: removed, queue: nil) { _ in }
            center.removeObserver(ended)
            (first, second, removed) = (nil, nil, nil)
            center.lookForDeadObjectFilters()
            let reported = probe.events.compactMap { event -> UInt64? in
                if case .objectDead(let registration, _) = event.kind { registration } else { nil }
            }
            #expect(reported == [tokens[1].registrationID, tokens[2].registrationID])
            withExtendedLifetime((tokens, valueFiltered)) {}
        }
    }

    @Test("a look through many slices reports each dead filter once, in registration order, past removed ones")
    func lookAcrossSlices() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let count = NotifyCenter.filterLookSlice * 3 + 7
            var documents: [Document?] = (0..<count).map { _ in Document() }
            let other = Notification.Name("other")
            let tokens = documents.map { document in
                center.addObserver(forName: other, object: document, queue: nil) { _ in }
            }
            // Most registrations end: the look's list drops them as it goes.
            for index in tokens.indices where index % 5 != 0 { center.removeObserver(tokens[index]) }
            for index in stride(from: 0, to: count, by: 3) { documents[index] = nil }
            center.lookForDeadObjectFilters()
            center.lookForDeadObjectFilters()
            let reported = probe.events.compactMap { event -> UInt64? in
                if case .objectDead(let registration, _) = event.kind { registration } else { nil }
            }
            #expect(reported == stride(from: 0, to: count, by: 15).map { tokens[$0].registrationID })
            withExtendedLifetime((tokens, documents)) {}
        }
    }

    @Test("a queue's post names the enqueues merged into it, by site, and takes the survivor's site")
    func queueMerges() {
        let center = NotifyCenter()
        let merges = LockedBox<[ProbeEvent.QueueMerge]>([])
        let posts = LockedBox<[ProbeEvent.Post]>([])
        let lines = LockedBox<(first: UInt, second: UInt, last: UInt)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            withProbe(on: center) { probe in
                let token = center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in }
                let queue = NotifyQueue(center: center)
                let firstLine: UInt = #line + 2
                for _ in 0..<2 {
                    queue.enqueue(Notification(name: Self.name), postingStyle: .asap)
                }
                let secondLine: UInt = #line + 1
                queue.enqueue(Notification(name: Self.name), postingStyle: .asap)
                let lastLine: UInt = #line + 1
                queue.enqueue(Notification(name: Self.name), postingStyle: .asap)
                let deadline = Date(timeIntervalSinceNow: 5)
                while queue.pendingCount > 0 && Date() < deadline {
                    _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
                }
                token.cancel()
                lines.value = (firstLine, secondLine, lastLine)
                posts.value = probe.posts
                merges.value = probe.events.compactMap { if case .queueMerged(let m) = $0.kind { m } else { nil } }
            }
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        guard let lines = lines.value, let post = posts.value.first else {
            Issue.record("the queue did not post")
            return
        }
        #expect(posts.value.count == 1)
        #expect(post.callsite.line == lines.last)
        #expect(merges.value.map(\.postID) == [post.postID, post.postID])
        #expect(merges.value.map(\.callsite.line) == [lines.first, lines.second])
        #expect(merges.value.map(\.count) == [2, 1])
    }
}
