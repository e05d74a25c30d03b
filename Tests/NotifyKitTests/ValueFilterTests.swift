import Foundation
@testable import NotifyKit
import Testing

/// Object filters that are values: `Hashable` values match equal values (Foundation would box them
/// and silently never match), class instances keep identity, other values are rejected.
@Suite struct ValueFilterTests {
    /// A value with no `==`: nothing could ever match it as a filter.
    struct Unhashable {
        let id = 1
    }

    /// A `Hashable` struct, the kind of identifier apps post.
    struct DocumentID: Hashable {
        let raw: String
    }

    @Test("an Int filter receives posts of an equal Int, through post(name:object:) and post(_:)")
    func intFilterMatchesEqualInt() {
        let center = NotifyCenter()
        let count = Counter()
        let token = center.addObserver(forName: .testN, object: 5, queue: nil) { _ in count.increment() }
        center.post(name: .testN, object: 5)
        center.post(Notification(name: .testN, object: 2 + 3))
        #expect(count.value == 2)
        #expect(token.isActive)
        token.cancel()
    }

    @Test("a String filter matches an equal string built elsewhere, and a Hashable struct an equal struct")
    func stringAndStructFilters() {
        let center = NotifyCenter()
        let strings = Counter()
        let structs = Counter()
        let a = center.addObserver(forName: .testN, object: "doc-1", queue: nil) { _ in strings.increment() }
        let b = center.addObserver(forName: .testN, object: DocumentID(raw: "x"), queue: nil) { _ in
            structs.increment()
        }
        let built = "doc-" + String(1)
        center.post(name: .testN, object: built)
        center.post(name: .testN, object: DocumentID(raw: "x"))
        #expect(strings.value == 1)
        #expect(structs.value == 1)
        a.cancel()
        b.cancel()
    }

    @Test("a value filter does not receive posts of another value, no object, or a class instance")
    func valueFilterRejectsOthers() {
        let center = NotifyCenter()
        let count = Counter()
        let token = center.addObserver(forName: .testN, object: 5, queue: nil) { _ in count.increment() }
        center.post(name: .testN, object: 6)
        center.post(name: .testN, object: "5")
        center.post(name: .testN)
        center.post(name: .testN, object: Subject(5))
        center.post(name: .testN, object: NSNumber(value: 5))
        #expect(count.value == 0)
        token.cancel()
    }

    @Test("posting a value reaches observers without a filter, and not instance filters")
    func valuePostReachesUnfiltered() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let subject = Subject(5)
        let tokens = [
            center.addObserver(forName: .testN, object: nil, queue: nil) { _ in log.append("any") },
            center.addObserver(forName: .testN, object: subject, queue: nil) { _ in log.append("subject") },
            center.addObserver(forName: nil, object: 5, queue: nil) { _ in log.append("*/5") },
        ]
        center.post(name: .testN, object: 5)
        #expect(log.all == ["any", "*/5"])
        tokens.forEach { $0.cancel() }
    }

    @Test("bridged Foundation objects are class instances on Linux and keep identity")
    func bridgedObjectsKeepIdentity() throws {
        let center = NotifyCenter()
        let count = Counter()
        // Small integers come from a cache of shared instances; these do not.
        let number = NSNumber(value: 5.5)
        let other = NSNumber(value: 5.5)
        try #require(number !== other)
        let token = center.addObserver(forName: .testN, object: number, queue: nil) { _ in count.increment() }
        center.post(name: .testN, object: other)
        center.post(name: .testN, object: 5.5)
        #expect(count.value == 0)
        center.post(name: .testN, object: number)
        #expect(count.value == 1)
        token.cancel()
    }

    @Test("a value filter is never taken for a dead object: it keeps delivering, probed or not")
    func valueFilterIsNotPurged() {
        let center = NotifyCenter()
        let count = Counter()
        let token = center.addObserver(forName: .testN, object: "doc-1", queue: nil) { _ in count.increment() }
        center.post(name: .testN, object: "doc-1")
        withProbe(on: center) { probe in
            center.post(name: .testN, object: "doc-1")
            center.post(name: .testN)
            #expect(probe.removals.isEmpty)
            #expect(probe.posts.map(\.matched) == [1, 0])
        }
        #expect(count.value == 2)
        #expect(token.isActive)
        token.cancel()
    }

    @Test("removeObserver(observer, name:, object: 5) ends only the registrations filtered on an equal value")
    func removalByValue() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let five = ValueListener("5", log: log)
        center.addObserver(five, action: ValueListener.handle, name: .testN, object: 5)
        center.addObserver(five, action: ValueListener.handle, name: .testN, object: 6)
        center.addObserver(five, action: ValueListener.handle, name: .testN, object: nil)
        center.removeObserver(five, name: .testN, object: 5)
        #expect(center.registrationCount == 2)
        center.post(name: .testN, object: 5)  // the unfiltered registration only
        center.post(name: .testN, object: 6)  // the one filtered on 6, and the unfiltered one
        #expect(log.count == 3)
        center.removeObserver(five)
    }

    @Test("a token's removal filtered on a value ends it only when the value is equal")
    func tokenRemovalByValue() {
        let center = NotifyCenter()
        let token = center.addObserver(forName: .testN, object: "doc-1", queue: nil) { _ in }
        center.removeObserver(token, name: .testN, object: "doc-2")
        center.removeObserver(token, name: .testN, object: Subject())
        #expect(token.isActive)
        center.removeObserver(token, name: .testN, object: "doc-1")
        #expect(!token.isActive)
    }

    @Test("probes see a value filter as its type with no address, equal values sharing one serial")
    func probesDescribeValues() throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            let tokens = [
                center.addObserver(forName: .testN, object: 5, queue: nil) { _ in },
                center.addObserver(forName: .testM, object: 5, queue: nil) { _ in },
                center.addObserver(forName: .testN, object: "doc-1", queue: nil) { _ in },
            ]
            let objects = try probe.registrations.map { try #require($0.object) }
            #expect(objects.map(\.address) == [0, 0, 0])
            #expect(objects.map(\.typeName) == ["Swift.Int", "Swift.Int", "Swift.String"])
            #expect(objects[0].serial != 0)
            #expect(objects[0].serial == objects[1].serial)
            #expect(objects[2].serial != objects[0].serial)
            center.post(name: .testN, object: 5)
            let posted = try #require(probe.posts.last?.object)
            #expect(posted == objects[0])
            #expect(probe.posts.last?.matched == 1)
            tokens.forEach { $0.cancel() }
        }
    }

    @Test("debugDescription writes a value filter as the value")
    func debugDescriptionShowsValue() {
        let center = NotifyCenter()
        let token = center.addObserver(forName: .testN, object: "doc-1", queue: nil) { _ in }
        #expect(center.debugDescription.contains("object: Swift.String \"doc-1\""))
        token.cancel()
    }

    @Test("the filter decision: nil any, instances by identity, Hashable values by ==, other values rejected")
    func filterDecision() {
        #expect(ObjectFilter(nil).isAny)
        let subject = Subject()
        #expect(ObjectFilter(subject).instance === subject)
        #expect(ObjectFilter(NSNumber(value: 1)).instance != nil)
        #expect(ObjectFilter(5).value == AnyHashable(5))
        #expect(ObjectFilter(Optional(Optional("a")) as Any).value == AnyHashable("a"))
        guard case .unhashable(let type) = ObjectFilter(Unhashable()) else {
            Issue.record("a value that is not Hashable was accepted as a filter")
            return
        }
        let message = ObjectFilter.rejection(of: type)
        #expect(message.contains("ValueFilterTests.Unhashable"))
        #expect(message.contains("Hashable value"))
    }

    @Test("a value filter that is not Hashable stops the program at registration")
    func unhashableFilterIsAPrecondition() async {
        await #expect(processExitsWith: .failure) {
            _ = NotifyCenter().addObserver(forName: .testN, object: Unhashable(), queue: nil) { _ in }
        }
    }

    @Test("removeObserver with a value for observer stops the program: a value has no registrations")
    func valueObserverIsAPrecondition() async {
        await #expect(processExitsWith: .failure) {
            NotifyCenter().removeObserver(5 as Any)
        }
    }

    @Test("NotifyQueue coalesces on sender by value equality, as observers match")
    func queueCoalescesEqualValues() {
        let pending = LockedBox<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        Thread {
            let queue = NotifyQueue(center: NotifyCenter())
            queue.enqueue(
                Notification(name: .testN, object: 5), postingStyle: .asap, coalesceMask: .onSender, forModes: nil)
            queue.enqueue(
                Notification(name: .testM, object: 5), postingStyle: .asap, coalesceMask: .onSender, forModes: nil)
            var counts = [queue.pendingCount]
            queue.enqueue(
                Notification(name: .testM, object: 6), postingStyle: .asap, coalesceMask: .onSender, forModes: nil)
            queue.enqueue(Notification(name: .testM), postingStyle: .asap, coalesceMask: .onSender, forModes: nil)
            counts.append(queue.pendingCount)
            queue.dequeueNotifications(matching: Notification(name: .testOther, object: 6), coalesceMask: .onSender)
            counts.append(queue.pendingCount)
            pending.value = counts
            done.signal()
        }.start()
        done.wait()
        #expect(pending.value == [1, 3, 2])
    }
}

/// A target-action observer that logs its label.
final class ValueListener {
    let label: String
    let log: Recorder<String>
    init(_ label: String, log: Recorder<String>) {
        self.label = label
        self.log = log
    }
    func handle(_ note: Notification) { log.append(label) }
}

extension ObjectFilter {
    var isAny: Bool {
        if case .any = self { return true }
        return false
    }

    var value: AnyHashable? {
        if case .value(let value) = self { return value }
        return nil
    }
}
