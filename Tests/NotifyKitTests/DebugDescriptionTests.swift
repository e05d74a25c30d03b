import Dispatch
import Foundation
import NotifyKit
import Testing

/// `debugDescription`: every live registration, one line each, as Darwin's debugger listing does.
@Suite struct DebugDescriptionTests {
    /// The line describing registration `id`, if any.
    private func line(for id: UInt64, in description: String) -> String? {
        description.split(separator: "\n").map(String.init).first { $0.hasPrefix("  #\(id) ") }
    }

    @Test("each live registration is listed with name or *, object or *, kind, target and callsite")
    func listsEveryRegistration() throws {
        let center = NotifyCenter(label: "described")
        let object = Subject(1)
        let owner = Subject(2)
        let queue = DispatchQueue(label: "tests.described-queue")
        let thread = DeliveryThread(name: "tests.described-thread")
        let operations = OperationQueue()
        operations.name = "tests.described-operations"
        try withProbe(on: center) { probe in
            var lines: [UInt] = []
            let tokens = [
                center.addObserver(forName: .testN, object: nil, queue: nil) { _ in },
                center.addObserver(forName: nil, object: object, deliverOn: .dispatchQueue(queue)) { _ in },
                center.addObserver(forName: nil, object: nil, deliverOn: .thread(thread)) { _ in },
                center.addObserver(forName: .testM, object: object, queue: operations) { _ in },
                center.addObserver(forName: .testN, object: nil, deliverOn: .main) { _ in },
            ]; lines += (0..<5).map { UInt(#line) - 5 + UInt($0) }
            let ownerToken = center.observe(.testM, owner: owner) { _, _ in }; lines.append(UInt(#line))
            center.addObserver(owner, action: Subject.receive, name: nil, object: object); lines.append(UInt(#line))
            let ids = probe.registrations.map(\.id)
            try #require(ids.count == 7)

            let description = center.debugDescription
            let header = description.split(separator: "\n").first.map(String.init)
            #expect(header == "<NotifyCenter \"described\": 7 registrations>")
            #expect(description.split(separator: "\n").count == 8)

            let objectText = "\(String(reflecting: Subject.self))@0x\(String(address(of: object), radix: 16))"
            let ownerText = "\(String(reflecting: Subject.self))@0x\(String(address(of: owner), radix: 16))"
            // (name, object, kind, observer, target) per registration, in registration order.
            let expected: [(String, String, String, String?, String)] = [
                ("N", "*", "block", nil, "posting thread"),
                ("*", objectText, "block", nil, "dispatch queue \"tests.described-queue\""),
                ("*", "*", "block", nil, "thread \"tests.described-thread\""),
                ("M", objectText, "block", nil, "operation queue \"tests.described-operations\""),
                ("N", "*", "block", nil, "main queue"),
                ("M", "*", "owner", ownerText, "posting thread"),
                ("*", objectText, "target", ownerText, "posting thread"),
            ]
            for (index, id) in ids.enumerated() {
                let text = try #require(line(for: id, in: description), "registration #\(id) is not listed")
                let fields = text.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")
                let (name, object, kind, observer, target) = expected[index]
                #expect(fields.count >= 5, "\(text)")
                #expect(fields.dropFirst().first == name, "\(text)")
                #expect(fields.contains("object: \(object)"), "\(text)")
                #expect(fields.contains(kind), "\(text)")
                if let observer {
                    #expect(fields.contains("observer: \(observer)"), "\(text)")
                }
                #expect(fields.contains("on \(target)"), "\(text)")
                #expect(fields.contains("at \(currentFileID()):\(lines[index])"), "\(text)")
                #expect(!text.contains("[token dropped]"), "\(text)")
            }
            (tokens + [ownerToken]).forEach { $0.cancel() }
            center.removeObserver(owner)
        }
    }

    @Test("a registration whose token was dropped is marked [token dropped]")
    func droppedTokenMarked() throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            _ = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
            let kept = center.addObserver(forName: .testM, object: nil, queue: nil) { _ in }
            let dropped = try #require(probe.registrations.first?.id)
            let description = center.debugDescription
            #expect(line(for: dropped, in: description)?.hasSuffix("[token dropped]") == true, "\(description)")
            #expect(line(for: kept.registrationID, in: description)?.contains("[token dropped]") == false)
            kept.cancel()
        }
    }

    @Test("removed registrations are no longer listed")
    func removedRegistrationsDisappear() {
        let center = NotifyCenter(label: "shrinking")
        let first = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let second = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        first.cancel()
        let description = center.debugDescription
        #expect(line(for: first.registrationID, in: description) == nil)
        #expect(line(for: second.registrationID, in: description) != nil)
        #expect(description.hasPrefix("<NotifyCenter \"shrinking\": 1 registrations>"))
        second.cancel()
        #expect(center.debugDescription == "<NotifyCenter \"shrinking\": 0 registrations>")
    }

    @Test("a dead observer or object is shown as <deallocated> until the registration is purged")
    func deadParticipantsShown() throws {
        let center = NotifyCenter()
        var owner: Subject? = Subject(1)
        var object: Subject? = Subject(2)
        center.observe(.testN, owner: owner!) { _, _ in }
        let filtered = center.addObserver(forName: .testM, object: object, queue: nil) { _ in }
        owner = nil
        object = nil
        let description = center.debugDescription
        let lines = description.split(separator: "\n").dropFirst().map(String.init)
        try #require(lines.count == 2)
        #expect(lines[0].contains("observer: <deallocated>"), "\(lines[0])")
        #expect(lines[1].contains("object: <deallocated>"), "\(lines[1])")
        filtered.cancel()
    }

    @Test("description names the center and counts its registrations")
    func shortDescription() {
        let center = NotifyCenter(label: "short")
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        #expect(center.description == "<NotifyCenter \"short\": 1 registrations>")
        token.cancel()
    }
}
