import Foundation
import NotifyKit
import Testing

/// A registration keeps the time the app made it, so a probe attached later reports its true age.
@Suite struct RegistrationTimeTests {
    @Test("a late probe's snapshot carries each registration's own time, not the time of attaching")
    func snapshotCarriesRegistrationTime() throws {
        let center = NotifyCenter()
        let before = MonotonicClock.now()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let after = MonotonicClock.now()
        // The attach is measurably later than the registration, whatever the machine's load.
        while MonotonicClock.now() <= after + 1_000_000 {}
        try withProbe(on: center) { probe in
            let event = try #require(probe.events.first)
            guard case .registered(let registration) = event.kind else {
                Issue.record("expected a registration, got \(event.kind)")
                return
            }
            #expect(registration.preexisting)
            #expect(registration.registeredAt >= before && registration.registeredAt <= after)
            #expect(event.timestamp > registration.registeredAt + 1_000_000)
        }
        token.cancel()
    }

    @Test("a live registration event's registration time is its own")
    func liveRegistrationTime() throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            let before = MonotonicClock.now()
            let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
            let registration = try #require(probe.registrations.first)
            #expect(!registration.preexisting)
            #expect(registration.registeredAt >= before && registration.registeredAt <= MonotonicClock.now())
            token.cancel()
        }
    }
}
