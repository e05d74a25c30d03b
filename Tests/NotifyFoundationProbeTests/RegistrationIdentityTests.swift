import NotifyFoundationProbe
import NotifyWire
import Testing

/// A registration is Foundation's token (center, name, object filter, number); a delivery goes to a
/// live registration whose closure, center and name fit its post; a removal of a token the center
/// does not hold is reported with its site.
@Suite struct RegistrationIdentityTests {
    @Test func aReusedClosureAddressIsCreditedToTheLiveRegistrationOfThePostsName() {
        let events = probeEvents([
            // "s" on private center c1, delivered once through context aaa.
            "A 1 100 c1 0 0 f1 0 fa 12 12 S 73 e100000000000000", "a 1 101 0 0",
            "P 1 110 c1 0 0 fa 20 20 S 73 e100000000000000", "D 1 111 aaa f1 0", "p 1 112",
            // c1 dies unseen; "o" on c0 gets the freed closure and context addresses.
            "A 1 200 c0 0 0 f1 0 fa 13 13 S 6f e100000000000000", "a 1 201 0 0",
            "P 1 210 c0 0 0 fa 21 21 S 6f e100000000000000", "D 1 211 aaa f1 0", "p 1 212",
            // Another center at c1's address: "o" there too, through the same addresses.
            "A 1 300 c1 0 0 f1 0 fa 14 14 S 6f e100000000000000", "a 1 301 0 0",
            "P 1 310 c1 0 0 fa 22 22 S 6f e100000000000000", "D 1 311 aaa f1 0", "p 1 312",
            // A post of a name no live registration of this closure observes: tied to none.
            "P 1 400 c0 0 0 fa 23 23 S 78 e100000000000000", "D 1 401 aaa f1 0", "p 1 402",
        ])
        let registrations = events.compactMap { if case .registered(let r) = $0 { r } else { nil } }
        #expect(registrations.map(\.name) == ["s", "o", "o"])
        #expect(registrations.allSatisfy { !$0.preexisting })
        let deliveries = events.compactMap { if case .delivered(let d) = $0 { d } else { nil } }
        #expect(deliveries.map(\.registration) == [1, 2, 3])
        #expect(deliveries.map(\.name) == ["s", "o", "o"])
        let gaps = events.compactMap { if case .gap(let g) = $0 { g } else { nil } }
        #expect(gaps.map(\.reason) == ["probe-delivery-unmatched"])
        #expect(gaps.map(\.count) == [1])
    }

    @Test func anObserverFoundLiveInAPostNotSeenKeepsItsLaterDeliveries() {
        let events = probeEvents([
            // Attached during a post: its delivery has no post; then a post seen on c0.
            "D 1 100 aaa f9 0", "p 1 110",
            "P 1 200 c0 0 0 fa 20 20 S 61 e100000000000000", "D 1 210 aaa f9 0", "p 1 220",
        ])
        let registrations = events.compactMap { if case .registered(let r) = $0 { r } else { nil } }
        #expect(registrations.map(\.preexisting) == [true])
        let deliveries = events.compactMap { if case .delivered(let d) = $0 { d.registration } else { nil } }
        #expect(deliveries == [registrations[0].id])
        #expect(!events.contains { if case .gap = $0 { true } else { false } })
    }

    @Test func oneNameUnderTwoObjectFiltersIsTwoTokensNumberedZero() {
        let events = probeEvents([
            "A 1 100 c0 7f00 5500 f1 0 fa 12 12 S 6e e100000000000000", "a 1 101 0 7f00",
            "A 1 110 c0 7e00 5500 f2 0 fa 13 13 S 6e e100000000000000", "a 1 111 0 7e00",
            "R 1 200 c0 0 7f00 fa 30 30 S 6e e100000000000000",
            "P 1 300 c0 7e00 5500 fa 20 20 S 6e e100000000000000",
            "R 1 400 c0 0 7e00 fa 31 31 S 6e e100000000000000",
            "P 1 500 c0 7e00 5500 fa 20 20 S 6e e100000000000000",
        ])
        let removals = events.compactMap { if case .removed(let r) = $0 { r.registration } else { nil } }
        #expect(removals == [1, 2])
        let posts = events.compactMap { if case .posted(let p) = $0 { p.matched } else { nil } }
        #expect(posts == [1, 0])
        #expect(!events.contains { if case .removeMissed = $0 { true } else { false } })
    }

    @Test func aTokenAddedAgainUnderALiveKeyEndsTheOldOne() {
        // Center c1 died unseen and a new one took its address: numbers start again at 0.
        let events = probeEvents([
            "A 1 100 c1 0 0 f1 0 fa 12 12 S 6e e100000000000000", "a 1 101 0 0",
            "A 1 200 c1 0 0 f2 0 fa 13 13 S 6e e100000000000000", "a 1 201 0 0",
            "R 1 300 c1 0 0 fa 30 30 S 6e e100000000000000",
            "P 1 400 c1 0 0 fa 20 20 S 6e e100000000000000",
        ])
        let removals = events.compactMap { if case .removed(let r) = $0 { r.registration } else { nil } }
        #expect(removals == [2])
        let posts = events.compactMap { if case .posted(let p) = $0 { p.matched } else { nil } }
        #expect(posts == [0])
    }

    @Test func aRemovalOfATokenTheCenterDoesNotHoldIsReportedWithItsSite() {
        let events = probeEvents([
            "A 1 100 c1 0 0 f1 0 fa 12 12 S 6e e100000000000000", "a 1 101 0 0",
            // Removed from c0, the default center: c1 still holds it.
            "R 1 200 c0 0 0 fa 30 30 S 6e e100000000000000",
            "P 1 250 c1 0 0 fa 20 20 S 6e e100000000000000",
            "R 1 300 c1 0 0 fa 31 31 S 6e e100000000000000",
            // Removed again.
            "R 1 400 c1 0 0 fa 32 32 S 6e e100000000000000",
            // A token never seen: perhaps added before the probes attached; not reported.
            "R 1 500 c0 5 0 fa 33 33 S 7a e100000000000000",
        ])
        let missed = events.compactMap { if case .removeMissed(let m) = $0 { m } else { nil } }
        let sites = events.compactMap { if case .callsite(let c) = $0 { c } else { nil } }
        #expect(missed.map { m in sites.first { $0.id == m.callsite }?.line } == [0x30, 0x32])
        #expect(missed.map(\.name) == ["n", "n"])
        let objects = events.compactMap { if case .object(let o) = $0 { o.id } else { nil } }
        #expect(missed.allSatisfy { objects.contains($0.observer) })
        let removals = events.compactMap { if case .removed(let r) = $0 { r.registration } else { nil } }
        #expect(removals == [1])
        let posts = events.compactMap { if case .posted(let p) = $0 { p.matched } else { nil } }
        #expect(posts == [1])
    }
}
