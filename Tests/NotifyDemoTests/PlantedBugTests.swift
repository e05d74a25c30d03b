import NotifyDemo
import NotifyKit
import NotifyTestSupport
import Testing

@Suite("Planted bugs and the facts their rules need")
struct PlantedBugTests {
    static let steps = 500

    @Test(
        "each planted bug produces its rule's fact and no other bug's",
        arguments: DemoBug.allCases, [UInt64(3), 8])
    func bugProducesItsFact(_ bug: DemoBug, seed: UInt64) {
        let run = MachineStall.retrying(
            {
                RecordedDemoRun.record(
                    DemoConfiguration(scenario: .steady, seed: seed, bugs: [bug], slowHandlerMilliseconds: 110),
                    steps: Self.steps)
            }, stalls: \.stalls)
        let facts = DemoFacts(run)
        #expect(
            facts.found == [bug],
            "\(bug.rawValue) (\(bug.rule)): found \(facts.found.map(\.rawValue)); \(facts.evidence)")
        #expect(run.truth.bugs.map(\.bug) == [bug.rawValue])
        #expect(run.truth.bugs.first?.instances ?? 0 > 0, "\(bug.rawValue) was never planted")
    }

    @Test(
        "a run with no bugs produces none of the facts, and every post has an observer",
        arguments: Array(UInt64(1)...5))
    func cleanRunHasNoFacts(seed: UInt64) {
        let run = MachineStall.retrying(
            { RecordedDemoRun.record(DemoConfiguration(scenario: .steady, seed: seed, bugs: []), steps: Self.steps) },
            stalls: \.stalls)
        let facts = DemoFacts(run)
        #expect(facts.found.isEmpty, "clean run: \(facts.evidence)")
        #expect(facts.unheardPosts.isEmpty, "posts nobody heard: \(Set(facts.unheardPosts))")
        #expect(run.truth.bugs.isEmpty)
    }

    @Test("every bug at once produces every fact")
    func allBugsAllFacts() {
        let run = RecordedDemoRun.record(
            DemoConfiguration(scenario: .steady, seed: 5, bugs: DemoBug.allCases, slowHandlerMilliseconds: 110),
            steps: Self.steps)
        #expect(DemoFacts(run).found == DemoBug.allCases)
    }

    @Test("the self-capturing banner is flagged by the center at registration")
    func selfCaptureIsFlagged() throws {
        let run = RecordedDemoRun.record(DemoConfiguration(scenario: .steady, bugs: [.selfCapture]), steps: 20)
        let flagged = run.events.compactMap { event -> ProbeEvent.Registration? in
            if case .registered(let registration) = event.kind, registration.capturesObserverStrongly {
                return registration
            }
            return nil
        }
        #expect(flagged.count == 1)
        #expect(try #require(flagged.first).observer?.typeName.hasSuffix("WhatsNewBanner") == true)
    }
}
