import Foundation
import NotifyKit
import NotifySystem
import NotifyTestSupport
import Testing

/// Synchronous delivery on the posting thread, duplicates, and global registration order.
@Suite struct PostingTests {
    @Test("post delivers synchronously: the handler has run when post returns")
    func deliveryIsSynchronous() {
        let center = NotifyCenter()
        let ran = Flag()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            usleep(5_000)  // a slow handler: an asynchronous post would return first
            ran.set()
        }
        center.post(name: .testN)
        #expect(ran.isSet)
        token.cancel()
    }

    @Test("the handler runs on the posting thread, not the registering thread")
    func handlerRunsOnPostingThread() {
        let center = NotifyCenter()
        let handlerThread = Slot<UInt64>()
        let posterThread = Slot<UInt64>()
        let registeringThread = NotifyThread.current.id
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            handlerThread.value = NotifyThread.current.id
        }
        let finished = finishes {
            posterThread.value = NotifyThread.current.id
            center.post(name: .testN)
        }
        #expect(finished)
        #expect(handlerThread.value != nil)
        #expect(handlerThread.value == posterThread.value)
        #expect(handlerThread.value != registeringThread)
        token.cancel()
    }

    @Test("N registrations of the same handler give N deliveries per post", arguments: [1, 2, 5, 32])
    func duplicateRegistrationsEachDeliver(_ registrations: Int) {
        let center = NotifyCenter()
        let count = Counter()
        let handler: @Sendable (Notification) -> Void = { _ in count.increment() }
        let tokens = (0..<registrations).map { _ in
            center.addObserver(forName: .testN, object: nil, queue: nil, using: handler)
        }
        center.post(name: .testN)
        #expect(count.value == registrations)
        tokens[0].cancel()
        center.post(name: .testN)
        #expect(count.value == registrations + registrations - 1)
        tokens.forEach { $0.cancel() }
    }

    @Test("removing one of several registrations leaves the others delivering")
    func removingOneLeavesTheOthers() {
        let center = NotifyCenter()
        let log = Recorder<Int>()
        let tokens = (1...3).map { index in
            center.addObserver(forName: .testN, object: nil, queue: nil) { _ in log.append(index) }
        }
        center.removeObserver(tokens[1])
        center.post(name: .testN)
        #expect(log.all == [1, 3])
        tokens.forEach { $0.cancel() }
    }

    /// A registration of the mixed-order scenario: a label and its (name, object) filter.
    struct Kind: Sendable {
        let label: String
        let name: Notification.Name?
        let object: String?
    }

    /// wild, name, obj, name+obj, name: the fixed order must be exactly this registration order.
    static let mixed: [Kind] = [
        Kind(label: "wild", name: nil, object: nil),
        Kind(label: "name", name: .testN, object: nil),
        Kind(label: "obj", name: nil, object: "a"),
        Kind(label: "name+obj", name: .testN, object: "a"),
        Kind(label: "name-2", name: .testN, object: nil),
    ]

    struct OrderCase: Sendable, CustomTestStringConvertible {
        let name: Notification.Name
        let object: String?
        let expected: [String]
        var testDescription: String { "post(\(name.rawValue), \(object ?? "nil"))" }
    }

    @Test(
        "delivery follows global registration order, mixing wildcard and named registrations",
        arguments: [
            OrderCase(name: .testN, object: "a", expected: ["wild", "name", "obj", "name+obj", "name-2"]),
            OrderCase(name: .testN, object: nil, expected: ["wild", "name", "name-2"]),
            OrderCase(name: .testM, object: "a", expected: ["wild", "obj"]),
        ])
    func registrationOrderAcrossBuckets(_ orderCase: OrderCase) {
        let center = NotifyCenter()
        let a = Subject()
        let log = Recorder<String>()
        let tokens = Self.mixed.map { kind in
            center.addObserver(forName: kind.name, object: kind.object == nil ? nil : a, queue: nil) { _ in
                log.append(kind.label)
            }
        }
        center.post(name: orderCase.name, object: orderCase.object == nil ? nil : a)
        #expect(log.all == orderCase.expected)
        tokens.forEach { $0.cancel() }
    }

    @Test(
        "registration order holds for many mixed registrations, after removals and re-adds",
        arguments: [1, 2, 3])
    func registrationOrderSurvivesChurn(_ seed: UInt64) {
        let center = NotifyCenter()
        let a = Subject(1)
        let b = Subject(2)
        let log = Recorder<Int>()
        var random = SplitMix64(seed: seed)
        // label → (name, object) filter, kept alongside the token so the expectation can be computed.
        var live: [(label: Int, name: Notification.Name?, object: Subject?, token: NotifyToken)] = []
        func add(_ label: Int) {
            let name: Notification.Name? = [nil, .testN, .testM].randomElement(using: &random)!
            let object: Subject? = [nil, a, b].randomElement(using: &random)!
            let token = center.addObserver(forName: name, object: object, queue: nil) { _ in log.append(label) }
            live.append((label, name, object, token))
        }
        for label in 0..<60 { add(label) }
        // Remove about half from anywhere (not only the tail), then add more: order must still be
        // registration order, with tombstones and compaction in between.
        for _ in 0..<30 {
            let index = Int.random(in: 0..<live.count, using: &random)
            live.remove(at: index).token.cancel()
        }
        for label in 60..<90 { add(label) }

        for name in [Notification.Name.testN, .testM] {
            for object in [nil, a, b] {
                log.reset()
                center.post(name: name, object: object)
                let expected = live.filter { entry in
                    (entry.name == nil || entry.name == name) && (entry.object == nil || entry.object === object)
                }.map(\.label)
                #expect(log.all == expected, "post(\(name.rawValue), \(String(describing: object)))")
            }
        }
        live.forEach { $0.token.cancel() }
    }

    @Test("posting with no observers does nothing and leaves the center empty")
    func postWithoutObservers() {
        let center = NotifyCenter()
        center.post(name: .testN)
        center.post(name: .testN, object: Subject())
        #expect(center.registrationCount == 0)
    }

    @Test("registrationCount counts live registrations")
    func registrationCountTracksLiveRegistrations() {
        let center = NotifyCenter()
        let first = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let second = center.addObserver(forName: nil, object: nil, queue: nil) { _ in }
        #expect(center.registrationCount == 2)
        first.cancel()
        #expect(center.registrationCount == 1)
        second.cancel()
        #expect(center.registrationCount == 0)
    }
}
