import Foundation
import NotifyDemo
import NotifyKit
import Testing

@Suite("Ground truth equals what a probe counted", .timeLimit(.minutes(10)))
struct GroundTruthTests {
    @Test(
        "posts and deliveries per name and per thread, and live registrations, match the probe",
        arguments: [DemoScenario.steady, .quiet, .leaky])
    func truthMatchesProbe(scenario: DemoScenario) {
        let run = RecordedDemoRun.record(
            DemoConfiguration(scenario: scenario, seed: 11, slowHandlerMilliseconds: 0), steps: 400)
        var posts: [String: Int] = [:]
        var deliveries: [String: Int] = [:]
        var postsByThread: [UInt64: Int] = [:]
        var deliveriesByThread: [UInt64: Int] = [:]
        var live = 0
        for event in run.events {
            switch event.kind {
            case .posted(let post):
                posts[post.name, default: 0] += 1
                postsByThread[event.thread, default: 0] += 1
            case .delivered(let delivery):
                deliveries[delivery.name, default: 0] += 1
                deliveriesByThread[event.thread, default: 0] += 1
            case .registered: live += 1
            case .removed: live -= 1
            default: break
            }
        }
        let truth = run.truth
        #expect(truth.postsByName == posts)
        #expect(truth.deliveriesByName == deliveries)
        let truthPosts = truth.threads.filter { $0.posts > 0 }.map { ($0.id, $0.posts) }
        let truthDeliveries = truth.threads.filter { $0.deliveries > 0 }.map { ($0.id, $0.deliveries) }
        #expect(Dictionary(uniqueKeysWithValues: truthPosts) == postsByThread)
        #expect(Dictionary(uniqueKeysWithValues: truthDeliveries) == deliveriesByThread)
        #expect(truth.registrationsLive == live)
        #expect(truth.posts == posts.values.reduce(0, +))
        #expect(truth.progressQueue.posted == posts[DemoName.downloadProgress.string, default: 0])
        #expect(truth.progressQueue.coalesced > 0, "progress was never coalesced")
    }

    @Test("the JSON has the documented keys and round-trips")
    func jsonRoundTrips() throws {
        let run = RecordedDemoRun.record(DemoConfiguration(scenario: .leaky, seed: 2), steps: 100)
        let data = try run.truth.jsonData()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["posts", "deliveries", "postsByName", "deliveriesByName", "threads", "registrationsLive", "bugs"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(try JSONDecoder().decode(GroundTruth.self, from: data) == run.truth)
    }
}
