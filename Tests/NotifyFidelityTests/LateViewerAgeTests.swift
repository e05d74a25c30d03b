import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
import NotifyModel
import NotifyTraceApp
import NotifyTraceViewer
import Testing

/// A viewer attached after the app registered sees each registration's real age: the snapshot
/// carries the app's registration time, and the observer table ages from it.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LateViewerAgeTests {
    @Test("AGE of a registration made before attach counts from the registration, not the attach")
    func lateViewerAgeIsTrue() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let before = MonotonicClock.now()
        let token = center.addObserver(forName: Notification.Name("age.early"), object: nil, queue: nil) { _ in }
        let registered = MonotonicClock.now()
        // The app runs a while before anyone attaches: 50 ms, by the clock the trace uses.
        while MonotonicClock.now() < registered + 50_000_000 { usleep(1_000) }
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        var model = InspectorState()
        var snapshot: TraceRegistration?
        let deadline = Date(timeIntervalSinceNow: 10)
        while snapshot == nil, Date() < deadline {
            guard case .event(let event) = reader.next(timeoutMilliseconds: 20) else { continue }
            model.apply(event)
            if case .registered(let registration) = event, registration.name == "age.early" { snapshot = registration }
        }
        let registration = try #require(snapshot)
        #expect(registration.preexisting)
        let registeredAt = try #require(registration.registeredAt)
        #expect(registeredAt >= before && registeredAt <= registered)
        #expect(registration.timestamp >= registered + 50_000_000)

        let row = try #require(model.registration(registration.id))
        #expect(row.registeredAt == registeredAt)
        #expect(row.age(at: registration.timestamp) >= 50_000_000)
        token.cancel()
    }
}
