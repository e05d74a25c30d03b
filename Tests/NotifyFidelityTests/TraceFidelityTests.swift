import Foundation
import NotifyDemo
import NotifyTraceViewer
import NotifyWire
import NotifyKit
import Testing

@Suite("Ground truth equals what a viewer receives", .serialized, .timeLimit(.minutes(10)))
struct TraceFidelityTests {
    @Test("a viewer attached from the start counts exactly the demo's posts, deliveries and registrations")
    func traceMatchesTruth() throws {
        let run = try RecordedDemoTrace.record(
            DemoConfiguration(scenario: .steady, seed: 4, slowHandlerMilliseconds: 0), steps: 400)
        #expect(run.end != nil && run.end != .disconnected)
        var posts: [String: Int] = [:]
        var deliveries: [String: Int] = [:]
        var postsByThread: [UInt64: Int] = [:]
        var live = 0
        var lost = 0
        for event in run.events {
            switch event {
            case .posted(let post):
                posts[post.name, default: 0] += 1
                postsByThread[post.thread, default: 0] += 1
            case .delivered(let delivery): deliveries[delivery.name, default: 0] += 1
            case .registered: live += 1
            case .removed: live -= 1
            case .gap(let gap): lost += Int(gap.count)
            default: break
            }
        }
        #expect(lost == 0)
        #expect(run.truth.postsByName == posts)
        #expect(run.truth.deliveriesByName == deliveries)
        #expect(run.truth.registrationsLive == live)
        let truthPosts = run.truth.threads.filter { $0.posts > 0 }.map { ($0.id, $0.posts) }
        #expect(Dictionary(uniqueKeysWithValues: truthPosts) == postsByThread)
    }
}
