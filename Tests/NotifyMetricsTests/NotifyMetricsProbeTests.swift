import Foundation
import Metrics
import MetricsTestKit
import NotifyKit
import NotifyMetrics
import Testing

@Suite("NotifyMetricsProbe")
struct NotifyMetricsProbeTests {
    @Test("posts and deliveries are counted per name, and each handler run is timed")
    func postsAndDeliveries() {
        let fixture = MetricsFixture()
        let center = NotifyCenter()
        let attachment = center.attach(fixture.probe)
        defer { attachment.detach() }
        let tokens = [
            center.addObserver(forName: .cart, object: nil, queue: nil) { _ in },
            center.addObserver(forName: .cart, object: nil, queue: nil) { _ in },
            center.addObserver(forName: .login, object: nil, queue: nil) { _ in },
        ]
        for _ in 0..<3 { center.post(name: .cart, object: nil) }
        center.post(name: .login, object: nil)
        center.post(name: Notification.Name("Unheard"), object: nil)

        #expect(fixture.posts("CartDidChange") == 3)
        #expect(fixture.deliveries("CartDidChange") == 6)
        #expect(fixture.posts("LoginDidFinish") == 1)
        #expect(fixture.deliveries("LoginDidFinish") == 1)
        #expect(fixture.posts("Unheard") == 1)
        #expect(fixture.deliveries("Unheard") == 0)
        #expect(fixture.handlerDurations("CartDidChange").count == 6)
        #expect(fixture.handlerDurations("LoginDidFinish").count == 1)
        for token in tokens { token.cancel() }
    }

    @Test("the handler timer records each delivery's duration in nanoseconds")
    func handlerDurationValues() {
        let fixture = MetricsFixture()
        fixture.probe.receive(SyntheticEvents.delivered("CartDidChange", registration: 1, duration: 1_234))
        fixture.probe.receive(SyntheticEvents.delivered("CartDidChange", registration: 1, duration: 56_789))
        #expect(fixture.handlerDurations("CartDidChange") == [1_234, 56_789])
    }

    @Test("the registrations gauge follows adds and removals, and removals count by reason")
    func gaugeAndRemovalReasons() {
        let fixture = MetricsFixture()
        let center = NotifyCenter()
        let attachment = center.attach(fixture.probe)
        defer { attachment.detach() }
        let first = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        let second = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        let third = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        #expect(fixture.registrations("CartDidChange") == 3)

        first.cancel()
        center.removeObserver(second)
        #expect(fixture.registrations("CartDidChange") == 1)
        #expect(fixture.removals("CartDidChange", .tokenCancelled) == 1)
        #expect(fixture.removals("CartDidChange", .explicit) == 1)

        var target: Target? = Target()
        center.addObserver(target!, action: Target.handle, name: .cart, object: nil)
        #expect(fixture.registrations("CartDidChange") == 2)
        target = nil
        center.post(name: .cart, object: nil)  // finds the dead target
        #expect(fixture.removals("CartDidChange", .observerDeallocated) == 1)
        #expect(fixture.registrations("CartDidChange") == 1)

        third.cancel()
        #expect(fixture.registrations("CartDidChange") == 0)
        #expect(fixture.probe.liveRegistrations == 0)
        #expect(fixture.removals("CartDidChange", .sequenceEnded) == 0)
    }

    @Test("a dropped block token counts as orphaned once; an owner-bound token's release does not")
    func droppedTokens() {
        let fixture = MetricsFixture()
        let center = NotifyCenter()
        let attachment = center.attach(fixture.probe)
        defer { attachment.detach() }
        let owner = Target()
        _ = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        center.observe(.login, owner: owner) { _, _ in }

        #expect(fixture.droppedTokens("CartDidChange") == 1)
        #expect(fixture.droppedTokens("LoginDidFinish") == 0)
        // The orphan stays registered: the gauge keeps it.
        #expect(fixture.registrations("CartDidChange") == 1)
        #expect(fixture.registrations("LoginDidFinish") == 1)
        center.removeObserver(owner)
        #expect(fixture.registrations("LoginDidFinish") == 0)
    }

    @Test("a probe attached late counts the live registrations, and their dropped tokens, once")
    func lateAttachCountsSnapshotOnce() {
        let fixture = MetricsFixture()
        let center = NotifyCenter()
        let kept = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        _ = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }  // orphaned before attaching
        let attachment = center.attach(fixture.probe)
        defer { attachment.detach() }

        #expect(fixture.registrations("CartDidChange") == 2)
        #expect(fixture.droppedTokens("CartDidChange") == 1)
        let added = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        #expect(fixture.registrations("CartDidChange") == 3)
        kept.cancel()
        added.cancel()
        #expect(fixture.registrations("CartDidChange") == 1)
        #expect(fixture.removals("CartDidChange", .tokenCancelled) == 2)
    }

    @Test("a registration reported twice counts once, and a removal of an unknown one changes nothing")
    func duplicateAndUnknownReports() {
        let fixture = MetricsFixture()
        fixture.probe.receive(SyntheticEvents.registered(id: 7, name: "CartDidChange", tokenDropped: true))
        fixture.probe.receive(
            SyntheticEvents.registered(id: 7, name: "CartDidChange", preexisting: true, tokenDropped: true))
        fixture.probe.receive(ProbeEvent(timestamp: 4, thread: 1, kind: .tokenDropped(registration: 7)))
        #expect(fixture.registrations("CartDidChange") == 1)
        #expect(fixture.droppedTokens("CartDidChange") == 1)

        fixture.probe.receive(ProbeEvent(timestamp: 5, thread: 1, kind: .removed(registration: 99, reason: .explicit)))
        fixture.probe.receive(ProbeEvent(timestamp: 6, thread: 1, kind: .removed(registration: 7, reason: .explicit)))
        fixture.probe.receive(ProbeEvent(timestamp: 7, thread: 1, kind: .removed(registration: 7, reason: .explicit)))
        #expect(fixture.registrations("CartDidChange") == 0)
        #expect(fixture.removals("CartDidChange", .explicit) == 1)
    }

    @Test("a probe that goes away takes its registrations out of the gauge, so its successor counts from zero")
    func successorProbeStartsFromZero() {
        let metrics = TestMetrics()
        let center = NotifyCenter()
        let tokens = [
            center.addObserver(forName: .cart, object: nil, queue: nil) { _ in },
            center.addObserver(forName: .cart, object: nil, queue: nil) { _ in },
        ]
        do {
            let probe = NotifyMetricsProbe(factory: metrics)
            for id in [UInt64(1), 2] { probe.receive(SyntheticEvents.registered(id: id, name: "CartDidChange")) }
            #expect(probe.liveRegistrations == 2)
        }
        let gauge = { (try? metrics.expectMeter("notify_registrations", [("name", "CartDidChange")]))?.lastValue }
        #expect(gauge() == 0)
        let successor = NotifyMetricsProbe(factory: metrics)
        let attachment = center.attach(successor)
        #expect(gauge() == 2)
        attachment.detach()
        withExtendedLifetime(tokens) {}
    }

    @Test("registrations of every name count under the any-name label")
    func wildcardRegistrations() {
        let fixture = MetricsFixture(NotifyMetricsConfiguration(anyName: "(all)"))
        let center = NotifyCenter()
        let attachment = center.attach(fixture.probe)
        defer { attachment.detach() }
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { _ in }
        center.post(name: .cart, object: nil)
        #expect(fixture.registrations("(all)") == 1)
        #expect(fixture.deliveries("CartDidChange") == 1)
        token.cancel()
        #expect(fixture.registrations("(all)") == 0)
        #expect(fixture.removals("(all)", .tokenCancelled) == 1)
    }

    @Test("typed message registrations and posts count under the message type's name")
    func typedMessagesCountLikeNames() {
        let fixture = MetricsFixture()
        let message = "Shop.CartChanged"
        let kinds: [ProbeEvent.RegistrationKind] = [.mainActorMessage, .asyncMessage, .messageSequence]
        for (index, kind) in kinds.enumerated() {
            fixture.probe.receive(SyntheticEvents.registered(id: UInt64(index + 1), name: message, kind: kind))
        }
        fixture.probe.receive(SyntheticEvents.posted(message, message: .mainActor))
        fixture.probe.receive(SyntheticEvents.delivered(message, registration: 1, duration: 10))
        fixture.probe.receive(SyntheticEvents.posted(message, message: .async))
        fixture.probe.receive(
            ProbeEvent(timestamp: 9, thread: 1, kind: .removed(registration: 3, reason: .sequenceEnded)))

        #expect(fixture.registrations(message) == 2)
        #expect(fixture.posts(message) == 2)
        #expect(fixture.deliveries(message) == 1)
        #expect(fixture.removals(message, .sequenceEnded) == 1)
    }

    @Test("the label prefix and the configured dimensions name every metric")
    func prefixAndDimensions() throws {
        let metrics = TestMetrics()
        let probe = NotifyMetricsProbe(
            configuration: NotifyMetricsConfiguration(labelPrefix: "shop_nc_", dimensions: [("center", "shop")]),
            factory: metrics)
        probe.receive(SyntheticEvents.posted("CartDidChange"))
        let posts = try metrics.expectCounter("shop_nc_posts", [("center", "shop"), ("name", "CartDidChange")])
        #expect(posts.totalValue == 1)
        #expect(metrics.counters(label: "notify_posts").isEmpty)
    }
}
