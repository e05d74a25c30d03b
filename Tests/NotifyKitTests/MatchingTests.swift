import Foundation
import NotifyKit
import Testing

/// Which registrations a post reaches: names and objects, nil wildcards, identity.
@Suite struct MatchingTests {
    /// One post of the four-observer name/object matrix (Foundation's matching rules), with the observers it must reach
    /// in registration order. Observers: "N/nil", "N/A", "nil/A", "nil/nil"; objects A and B.
    struct MatrixCase: Sendable, CustomTestStringConvertible {
        let name: Notification.Name
        let object: String?
        let expected: [String]
        var testDescription: String { "post(\(name.rawValue), \(object ?? "nil")) → \(expected)" }
    }

    static let matrix: [MatrixCase] = [
        MatrixCase(name: .testN, object: nil, expected: ["N/nil", "nil/nil"]),
        MatrixCase(name: .testN, object: "A", expected: ["N/nil", "N/A", "nil/A", "nil/nil"]),
        MatrixCase(name: .testN, object: "B", expected: ["N/nil", "nil/nil"]),
        MatrixCase(name: .testM, object: "A", expected: ["nil/A", "nil/nil"]),
        MatrixCase(name: .testM, object: nil, expected: ["nil/nil"]),
    ]

    @Test("nil name and nil object are wildcards, matching the four-observer matrix", arguments: matrix)
    func wildcardMatrix(_ matrixCase: MatrixCase) {
        let center = NotifyCenter()
        let a = Subject(1)
        let b = Subject(2)
        let log = Recorder<String>()
        let tokens = [
            center.addObserver(forName: .testN, object: nil, queue: nil) { _ in log.append("N/nil") },
            center.addObserver(forName: .testN, object: a, queue: nil) { _ in log.append("N/A") },
            center.addObserver(forName: nil, object: a, queue: nil) { _ in log.append("nil/A") },
            center.addObserver(forName: nil, object: nil, queue: nil) { _ in log.append("nil/nil") },
        ]
        let object: Subject? =
            switch matrixCase.object {
            case "A": a
            case "B": b
            default: nil
            }
        center.post(name: matrixCase.name, object: object)
        #expect(log.all == matrixCase.expected)
        tokens.forEach { $0.cancel() }
    }

    @Test("the handler receives the posted name, the identical object and the userInfo")
    func handlerReceivesThePostedNotification() {
        let center = NotifyCenter()
        let subject = Subject(7)
        let received = Recorder<String>()
        let token = center.addObserver(forName: .testN, object: subject, queue: nil) { note in
            let same = (note.object as AnyObject?) === subject
            received.append("\(note.name.rawValue) same=\(same) k=\(note.userInfo?["k"] as? Int ?? -1)")
        }
        center.post(name: .testN, object: subject, userInfo: ["k": 42])
        #expect(received.all == ["N same=true k=42"])
        token.cancel()
    }

    /// The two ways to post: the convenience and a prebuilt `Notification`.
    enum PostForm: String, CaseIterable, Sendable {
        case nameAndObject, notification

        func post(_ center: NotifyCenter, _ name: Notification.Name, _ object: AnyObject?) {
            switch self {
            case .nameAndObject: center.post(name: name, object: object)
            case .notification: center.post(Notification(name: name, object: object))
            }
        }
    }

    @Test(
        "object filters match by identity: an equal but different instance does not match",
        arguments: PostForm.allCases)
    func equalButDifferentInstanceDoesNotMatch(_ form: PostForm) {
        let center = NotifyCenter()
        let registered = Subject(5)
        let twin = Subject(5)
        #expect(registered == twin)  // equal by value…
        let count = Counter()
        let token = center.addObserver(forName: .testN, object: registered, queue: nil) { _ in count.increment() }
        form.post(center, .testN, twin)  // …but not the same object
        #expect(count.value == 0)
        form.post(center, .testN, registered)
        #expect(count.value == 1)
        token.cancel()
    }

    @Test("a value-type object reaches only registrations without an object filter")
    func valueTypeObjectMatchesOnlyUnfiltered() {
        let center = NotifyCenter()
        let filtered = Counter()
        let unfiltered = Counter()
        let subject = Subject()
        let tokens = [
            center.addObserver(forName: .testN, object: subject, queue: nil) { _ in filtered.increment() },
            center.addObserver(forName: .testN, object: nil, queue: nil) { _ in unfiltered.increment() },
        ]
        center.post(Notification(name: .testN, object: "abc"))
        center.post(Notification(name: .testN, object: 5))
        #expect(filtered.value == 0)
        #expect(unfiltered.value == 2)
        tokens.forEach { $0.cancel() }
    }

    @Test("a name filter does not match other names, with or without an object")
    func nameFilterIsExact() {
        let center = NotifyCenter()
        let count = Counter()
        let subject = Subject()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in count.increment() }
        center.post(name: .testM)
        center.post(name: .testM, object: subject)
        center.post(name: Notification.Name("n"))  // names are case-sensitive
        #expect(count.value == 0)
        center.post(name: .testN, object: subject)
        #expect(count.value == 1)
        token.cancel()
    }

    @Test("a dead object filter never matches a new object at the same address, and is purged")
    func deadObjectFilterNeverMatchesReusedAddress() throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            let count = Counter()
            // Many objects of the same class, each kept alive so each is distinct: one lands on
            // the dead filter's address.
            let (reusedToken, fresh) = try #require(
                registerDeadFilter {
                    center.addObserver(forName: .testN, object: $0, queue: nil) { _ in count.increment() }
                },
                "no new object reused the dead filter's address; the test proves nothing")
            for subject in fresh { center.post(name: .testN, object: subject) }
            #expect(count.value == 0, "a new object at a dead filter's address received deliveries")
            #expect(probe.removalReasons(of: reusedToken.registrationID) == [.objectDeallocated])
            #expect(center.registrationCount == 0)
            #expect(!reusedToken.isActive)
        }
    }

    @Test("a dead object filter does not match a post with no object")
    func deadObjectFilterDoesNotMatchNilObject() {
        let center = NotifyCenter()
        let count = Counter()
        var filter: Subject? = Subject(1)
        let token = center.addObserver(forName: .testN, object: filter, queue: nil) { _ in count.increment() }
        filter = nil
        center.post(name: .testN)
        center.post(name: .testN, object: Subject(2))
        #expect(count.value == 0)
        token.cancel()
    }

    @Test("an object filter does not keep its object alive")
    func objectFilterIsHeldWeakly() {
        let center = NotifyCenter()
        var filter: Subject? = Subject(1)
        let weak = WeakRef(filter)
        let token = center.addObserver(forName: .testN, object: filter, queue: nil) { _ in }
        filter = nil
        #expect(!weak.isAlive)
        token.cancel()
    }
}
