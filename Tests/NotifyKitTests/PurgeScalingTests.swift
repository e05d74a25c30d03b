import Foundation
import NotifyKit
import Testing

/// Lazy purging must stay linear: dead registrations pile up between posts, and addresses of dead
/// observers are reused by new ones of the same class (1000 times out of 1000 on Linux).
@Suite struct PurgeScalingTests {
    /// What ends the dead registrations.
    enum Ending: String, CaseIterable, Sendable {
        /// The next post of their name.
        case post
        /// `removeObserver` of a new object at the reused address, then a post.
        case removeObserverThenPost
    }

    /// Registers `count` owner-bound observers whose owners are all dead, ends them as `ending`
    /// says and times that. With `sameAddress`, each owner is freed before the next is made, so
    /// they share an address; otherwise they are alive together, so all addresses differ.
    private func timeToEnd(count: Int, sameAddress: Bool, _ ending: Ending) -> (seconds: Double, addresses: Int) {
        let center = NotifyCenter()
        var addresses = Set<ObjectIdentifier>()
        var alive: [Subject] = []
        for value in 0..<count {
            let owner = Subject(value)
            addresses.insert(ObjectIdentifier(owner))
            center.observe(.testN, owner: owner) { _, _ in }
            if !sameAddress { alive.append(owner) }
        }
        alive.removeAll()
        let heir = Subject(-1)  // with shared addresses, most likely at the one the dead owners had
        let start = Date()
        if ending == .removeObserverThenPost { center.removeObserver(heir) }
        center.post(name: .testN)
        let seconds = Date().timeIntervalSince(start)
        #expect(center.registrationCount == 0)
        return (seconds, addresses.count)
    }

    @Test(
        "ending many dead owner-bound registrations that share a reused address takes about as long as distinct ones",
        arguments: Ending.allCases)
    func endingAtReusedAddressIsLinear(_ ending: Ending) throws {
        let count = 4_000
        let distinct = timeToEnd(count: count, sameAddress: false, ending)
        let reused = timeToEnd(count: count, sameAddress: true, ending)
        try #require(reused.addresses < count / 10, "owners did not share addresses; nothing to measure")
        // Generous: 10x the distinct case and at least 0.2 s. A quadratic purge (each removal
        // scanning every registration filed under the same observer identity) takes far longer.
        let limit = max(0.2, 10 * distinct.seconds)
        #expect(
            reused.seconds < limit,
            "\(count) dead registrations took \(reused.seconds) s to end at a reused address, \(distinct.seconds) s at distinct ones"
        )
    }
}
