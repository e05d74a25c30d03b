import Foundation
import Metrics
import MetricsTestKit
import NotifyKit
import NotifyMetrics
import Testing

@Suite("NotifyMetricsProbe concurrency")
struct NotifyMetricsConcurrencyTests {
    @Test("threads posting at once, on names and stripes they share, lose no count")
    func concurrentPostsAreExact() {
        let fixture = MetricsFixture(NotifyMetricsConfiguration(maxNames: 3))
        let center = NotifyCenter()
        let attachment = center.attach(fixture.probe)
        defer { attachment.detach() }
        let names = (0..<6).map { Notification.Name("N\($0)") }
        let tokens = names.map { center.addObserver(forName: $0, object: nil, queue: nil) { _ in } }
        let threads = 4
        let postsPerThread = 2_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<postsPerThread {
                center.post(name: names[(index + thread) % names.count], object: nil)
            }
        }
        let total = Int64(threads * postsPerThread)
        let counted = ["N0", "N1", "N2", "other"].map(fixture.posts).reduce(0, +)
        let delivered = ["N0", "N1", "N2", "other"].map(fixture.deliveries).reduce(0, +)
        #expect(counted == total)
        #expect(delivered == total)
        #expect(fixture.registrations("other") == 3)
        for token in tokens { token.cancel() }
        #expect(fixture.registrations("other") == 0)
    }
}
