import Foundation
import NotifyKit
import Testing

/// `addObserver(_:action:name:object:)`: weakly held targets and Foundation's removal rules.
@Suite struct TargetActionTests {
    /// A target that records which instance each notification reached.
    final class Listener {
        let log: Recorder<String>
        let label: String
        init(_ label: String, log: Recorder<String>) {
            self.label = label
            self.log = log
        }
        func handle(_ note: Notification) { log.append("\(label):\(note.name.rawValue)") }
    }

    @Test("the target is held weakly: dropping it deallocates it although it is registered")
    func targetIsHeldWeakly() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let log = Recorder<String>()
            var listener: Listener? = Listener("l", log: log)
            let weak = WeakRef(listener)
            center.addObserver(listener!, action: Listener.handle, name: .testN, object: nil)
            center.post(name: .testN)
            listener = nil
            #expect(!weak.isAlive, "the center kept its target alive")
            center.post(name: .testN)
            #expect(log.all == ["l:N"])
            let id = probe.registrations.first?.id
            #expect(probe.removals.map(\.reason) == [.observerDeallocated])
            #expect(probe.removals.map(\.registration) == [id].compactMap { $0 })
            #expect(center.registrationCount == 0)
        }
    }

    @Test("the action is called on the instance that registered, in registration order")
    func actionCalledOnTheRightInstance() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let first = Listener("first", log: log)
        let second = Listener("second", log: log)
        center.addObserver(second, action: Listener.handle, name: .testN, object: nil)
        center.addObserver(first, action: Listener.handle, name: nil, object: nil)
        center.post(name: .testN)
        center.post(name: .testM)
        #expect(log.all == ["second:N", "first:N", "first:M"])
        center.removeObserver(first)
        center.removeObserver(second)
    }

    @Test("removeObserver(target) removes all of its registrations and only its own")
    func removeTargetRemovesAll() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let subject = Subject()
        let target = Listener("target", log: log)
        let bystander = Listener("bystander", log: log)
        center.addObserver(target, action: Listener.handle, name: .testN, object: nil)
        center.addObserver(target, action: Listener.handle, name: .testM, object: subject)
        center.addObserver(target, action: Listener.handle, name: nil, object: nil)
        center.addObserver(target, action: Listener.handle, name: .testN, object: nil)  // a duplicate
        center.addObserver(bystander, action: Listener.handle, name: .testN, object: nil)
        let token = center.observe(.testN, owner: bystander) { bystander, note in bystander.handle(note) }
        #expect(center.registrationCount == 6)
        center.removeObserver(target)
        #expect(center.registrationCount == 2)
        center.post(name: .testN)
        center.post(name: .testM, object: subject)
        #expect(log.all == ["bystander:N", "bystander:N"])
        center.removeObserver(bystander)
        #expect(!token.isActive)
    }

    /// A `removeObserver(target, name:, object:)` call and the labels of the registrations it must
    /// leave. Registrations, in order: "A/nil", "A/o1", "B/o1", "nil/o1", "B/nil", "nil/nil".
    struct SubsetCase: Sendable, CustomTestStringConvertible {
        let name: Notification.Name?
        let object: String?
        let survivors: [String]
        var testDescription: String {
            "removeObserver(target, name: \(name?.rawValue ?? "nil"), object: \(object ?? "nil"))"
        }
    }

    static let labels = ["A/nil", "A/o1", "B/o1", "nil/o1", "B/nil", "nil/nil"]
    static let nameA = Notification.Name("A")
    static let nameB = Notification.Name("B")

    @Test(
        "removeObserver(target, name:, object:) removes the matching subset; a non-nil object matches only that filter",
        arguments: [
            SubsetCase(name: nameA, object: nil, survivors: ["B/o1", "nil/o1", "B/nil", "nil/nil"]),
            SubsetCase(name: nil, object: "o1", survivors: ["A/nil", "B/nil", "nil/nil"]),
            SubsetCase(name: nameA, object: "o1", survivors: ["A/nil", "B/o1", "nil/o1", "B/nil", "nil/nil"]),
            SubsetCase(name: nameB, object: nil, survivors: ["A/nil", "A/o1", "nil/o1", "nil/nil"]),
            SubsetCase(name: nil, object: "o2", survivors: labels),
            SubsetCase(name: nil, object: nil, survivors: []),
        ])
    func removeMatchingSubset(_ subsetCase: SubsetCase) {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let log = Recorder<String>()
            let target = Listener("t", log: log)
            let o1 = Subject(1)
            let o2 = Subject(2)
            let filters: [(Notification.Name?, Subject?)] = [
                (Self.nameA, nil), (Self.nameA, o1), (Self.nameB, o1), (nil, o1), (Self.nameB, nil), (nil, nil),
            ]
            for (name, object) in filters {
                center.addObserver(target, action: Listener.handle, name: name, object: object)
            }
            let ids = probe.registrations.map(\.id)
            #expect(ids.count == Self.labels.count)
            let object: Subject? =
                switch subsetCase.object {
                case "o1": o1
                case "o2": o2
                default: nil
                }
            center.removeObserver(target, name: subsetCase.name, object: object)
            let removed = Set(probe.removals.map(\.registration))
            let survivors = zip(ids, Self.labels).filter { !removed.contains($0.0) }.map(\.1)
            #expect(survivors == subsetCase.survivors)
            #expect(center.registrationCount == subsetCase.survivors.count)
            #expect(probe.removals.allSatisfy { $0.reason == .explicit })
            center.removeObserver(target)
        }
    }

    @Test("removeObserver on an object with no registrations emits removeMissed with its callsite")
    func removeMissedForUnknownObserver() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let stranger = Subject(3)
            center.removeObserver(stranger); let line = UInt(#line)
            let missed = probe.missedRemovals
            #expect(missed.count == 1)
            #expect(missed.first?.observer.typeName == String(reflecting: Subject.self))
            #expect(missed.first?.name == nil)
            #expect(missed.first?.callsite.file == currentFileID())
            #expect(missed.first?.callsite.line == line)
            #expect(probe.removals.isEmpty)
        }
    }

    @Test("removeObserver with a name and object that match none of the target's registrations emits removeMissed")
    func removeMissedForNonMatchingSubset() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let log = Recorder<String>()
            let target = Listener("t", log: log)
            center.addObserver(target, action: Listener.handle, name: .testN, object: nil)
            center.removeObserver(target, name: .testM, object: nil)
            #expect(probe.missedRemovals.map(\.name) == ["M"])
            #expect(center.registrationCount == 1)
            center.removeObserver(target)
            #expect(probe.missedRemovals.count == 1)
        }
    }

    @Test("removeObserver of a target registered twice removes both; a second call misses")
    func removeTargetTwice() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let log = Recorder<String>()
            let target = Listener("t", log: log)
            center.addObserver(target, action: Listener.handle, name: .testN, object: nil)
            center.addObserver(target, action: Listener.handle, name: .testN, object: nil)
            center.post(name: .testN)
            #expect(log.all == ["t:N", "t:N"])
            center.removeObserver(target)
            center.removeObserver(target)
            center.post(name: .testN)
            #expect(log.count == 2)
            #expect(probe.removals.count == 2)
            #expect(probe.missedRemovals.count == 1)
        }
    }

    @Test("a new target at a dead target's address is not confused with it")
    func deadTargetAddressReuse() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        var dead: Listener? = Listener("dead", log: log)
        let deadID = ObjectIdentifier(dead!)
        center.addObserver(dead!, action: Listener.handle, name: .testN, object: nil)
        dead = nil
        var fresh: [Listener] = []
        for index in 0..<500 {
            let listener = Listener("fresh\(index)", log: log)
            fresh.append(listener)
            if ObjectIdentifier(listener) == deadID { break }
        }
        // The dead target's registration must neither reach a new object at its address nor count.
        center.post(name: .testN)
        #expect(log.all.isEmpty)
        #expect(center.registrationCount == 0)
        withExtendedLifetime(fresh) {}
    }
}
