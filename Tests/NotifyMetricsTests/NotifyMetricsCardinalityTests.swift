import Foundation
import Metrics
import MetricsTestKit
import NotifyKit
import NotifyMetrics
import Testing

@Suite("NotifyMetricsProbe label cardinality")
struct NotifyMetricsCardinalityTests {
    @Test("names beyond the cap fold into the other label, and no metric is made for them")
    func namesBeyondCapFold() {
        let fixture = MetricsFixture(NotifyMetricsConfiguration(maxNames: 2, otherName: "(other)"))
        for name in ["A", "B", "C", "D", "A", "C"] {
            fixture.probe.receive(SyntheticEvents.posted(name))
        }
        #expect(fixture.posts("A") == 2)
        #expect(fixture.posts("B") == 1)
        #expect(fixture.posts("(other)") == 3)
        #expect(fixture.names(of: "posts") == ["A", "B", "(other)", "*"])
        #expect(fixture.probe.labelledNames == 2)
    }

    @Test("many distinct names make at most the cap's labels")
    func manyNamesStayBounded() {
        let fixture = MetricsFixture(NotifyMetricsConfiguration(maxNames: 10))
        for index in 0..<5_000 {
            fixture.probe.receive(SyntheticEvents.posted("name-\(index)", thread: UInt64(index % 3)))
        }
        #expect(fixture.names(of: "posts").count == 10 + 2)
        #expect(fixture.posts("other") == 5_000 - 10)
    }

    @Test("a folded name's registrations rise and fall in other's gauge; a labelled name keeps its own")
    func foldedGauge() {
        let fixture = MetricsFixture(NotifyMetricsConfiguration(maxNames: 1))
        let center = NotifyCenter()
        let attachment = center.attach(fixture.probe)
        defer { attachment.detach() }
        let cart = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        let login = center.addObserver(forName: .login, object: nil, queue: nil) { _ in }
        let misc = center.addObserver(forName: Notification.Name("Misc"), object: nil, queue: nil) { _ in }
        #expect(fixture.registrations("CartDidChange") == 1)
        #expect(fixture.registrations("other") == 2)
        #expect(fixture.registrations("LoginDidFinish") == nil)

        login.cancel()
        #expect(fixture.registrations("other") == 1)
        #expect(fixture.removals("other", .tokenCancelled) == 1)
        // Once labels run out, a name that had none stays folded, even after others' gauges reach 0.
        cart.cancel()
        let again = center.addObserver(forName: .login, object: nil, queue: nil) { _ in }
        #expect(fixture.registrations("other") == 2)
        #expect(fixture.registrations("CartDidChange") == 0)
        misc.cancel()
        again.cancel()
        #expect(fixture.registrations("other") == 0)
    }

    @Test("a cap of zero folds every name")
    func zeroCap() {
        let fixture = MetricsFixture(NotifyMetricsConfiguration(maxNames: 0))
        fixture.probe.receive(SyntheticEvents.posted("A"))
        fixture.probe.receive(SyntheticEvents.registered(id: 1, name: "A"))
        #expect(fixture.posts("other") == 1)
        #expect(fixture.registrations("other") == 1)
        #expect(fixture.probe.labelledNames == 0)
    }
}
