import Foundation
import NotifyKit
import Testing

/// An owner-bound registration ends with its owner by design: releasing its token orphans nothing,
/// so NotifyKit never calls it dropped.
@Suite struct OwnerBoundTokenTests {
    private func line(for id: UInt64, in description: String) -> String? {
        description.split(separator: "\n").map(String.init).first { $0.hasPrefix("  #\(id) ") }
    }

    @Test("a released owner-bound token reads [ends with its owner], never [token dropped]")
    func releasedOwnerBoundTokenIsBound() throws {
        let center = NotifyCenter()
        let owner = Subject(1)
        try withProbe(on: center) { probe in
            _ = center.observe(.testN, owner: owner) { _, _ in }
            let id = try #require(probe.registrations.first?.id)
            let text = try #require(line(for: id, in: center.debugDescription))
            #expect(!text.contains("[token dropped]"), "\(text)")
            #expect(text.hasSuffix("[ends with its owner]"), "\(text)")
            // The release is still reported (a late viewer needs it), as the registration's fact.
            #expect(
                probe.events.contains { if case .tokenDropped(let dropped) = $0.kind { dropped == id } else { false } })
            center.removeObserver(owner)
        }
    }

    @Test("once the owner is gone, the line says the owner it ends with was deallocated")
    func deadOwnerShown() throws {
        let center = NotifyCenter()
        var owner: Subject? = Subject(1)
        _ = center.observe(.testN, owner: owner!) { _, _ in }
        owner = nil
        let text = try #require(center.debugDescription.split(separator: "\n").dropFirst().first.map(String.init))
        #expect(text.hasSuffix("[ends with its owner: deallocated]"), "\(text)")
        #expect(!text.contains("[token dropped]"), "\(text)")
    }

    @Test("a block registration's dropped token is still [token dropped]")
    func blockTokenStillDropped() throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            _ = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
            let id = try #require(probe.registrations.first?.id)
            #expect(line(for: id, in: center.debugDescription)?.hasSuffix("[token dropped]") == true)
        }
    }
}
