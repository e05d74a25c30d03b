import Foundation
import NotifyDemo
import NotifyKit
import NotifyModel
import NotifyTestSupport
import NotifyTraceViewer
import NotifyWire
import Testing

/// The demo's silent bugs against the explanation: for each entry of the truth, explaining the
/// post its observer missed gives exactly the expected reason for that observer, with the evidence
/// the truth expects (the cancelling call's site, when the filter died, the coalesced enqueues'
/// count and sites), live (through a real inspector socket) and replayed from the recording.
@Suite("Explain gives each silent bug's planted reason, live and replayed", .timeLimit(.minutes(10)))
struct SilentBugExplanationTests {
    static let steps = 300

    @Test("every silent bug, with every planted bug on, live and replayed", arguments: [UInt64(31), 32])
    func explanationsAgreeWithTruth(seed: UInt64) throws {
        let path = temporaryPath("demo-silent-\(seed)", suffix: ".jsonl")
        defer { unlink(path) }
        let run = try RecordedDemoTrace.record(
            DemoConfiguration(scenario: .steady, seed: seed, slowHandlerMilliseconds: 110, silentBugs: true),
            steps: Self.steps, markEvery: 50, recordingPath: path)
        let truth = run.truth
        #expect(truth.silentBugs.map(\.bug) == SilentBug.allCases.map(\.rawValue), "every silent bug planted once")

        let live = InspectorState.fold(run)
        #expect(live.eventsLost == 0)
        #expect(TruthComparison.figureMismatches(live, truth) == [], "the silent bugs' posts are counted")

        let reader = try TraceReader.open(file: path)
        var recorded: [TraceEvent] = []
        while case .event(let event) = reader.next() { recorded.append(event) }
        #expect(reader.malformedLines == 0)
        var replayed = InspectorState(configuration: InspectorState.demoTestConfiguration)
        replayed.apply(recorded)

        for (label, state) in [("live", live), ("replayed", replayed)] {
            #expect(Self.disagreements(state, truth.silentBugs) == [], "seed \(seed), \(label)")
        }
    }

    @Test("alone, the silent bugs raise only the rules a misspelt name, a dead filter object and a wrong center trip")
    func findingsOfTheSilentBugs() throws {
        let run = try RecordedDemoTrace.record(
            DemoConfiguration(scenario: .steady, seed: 3, bugs: [], silentBugs: true), steps: 500, markEvery: 50)
        let state = InspectorState.fold(run)
        let raised = Set(state.findings.map { "\($0.rule.code) \($0.evidence.name ?? "?")" })
        #expect(
            raised == [
                "R9 ProfileDidSynk", "R10 ProfileDidSync", "R3 SubscriptionDidRenew", "R10 SettingsDidChange",
            ], "\(state.findingLines)")
    }

    @Test("the silent bugs are planted only when asked for")
    func offByDefault() throws {
        let simulation = DemoSimulation(
            configuration: DemoConfiguration(scenario: .steady, seed: 5), center: NotifyCenter(label: "silent-off"))
        simulation.run(steps: 30)
        #expect(simulation.groundTruth().silentBugs == [])
    }

    /// One line per truth entry whose observer the explanation does not give exactly the expected
    /// reason: no verdict for its site, or a verdict with another reason.
    static func disagreements(_ state: InspectorState, _ entries: [SilentBugTruth]) -> [String] {
        var out: [String] = []
        for entry in entries {
            let explanation = state.explain(name: entry.name)
            var verdicts = explanation.posts.flatMap(\.considered).filter { $0.site?.description == entry.site }
            if verdicts.isEmpty, explanation.posts.contains(where: { $0.registeredLater != nil }) {
                // Registrations made after a post are summed up in one line; asked about one by
                // one, each gets its verdict.
                for row in state.registrations where row.name == entry.name || row.name == nil {
                    verdicts += state.explain(name: entry.name, registration: row.id).posts.flatMap(\.considered)
                        .filter { $0.site?.description == entry.site }
                }
            }
            if verdicts.isEmpty {
                out.append("\(entry.bug): no verdict for the observer at \(entry.site) on \(entry.name)")
            }
            for verdict in verdicts where verdict.reason.rawValue != entry.reason {
                out.append(
                    "\(entry.bug) at \(entry.site): \(verdict.reason) (\(verdict.detail)), expected \(entry.reason)")
            }
            for verdict in verdicts {
                for text in entry.evidence ?? [] where !verdict.detail.contains(text) {
                    out.append("\(entry.bug) at \(entry.site): \"\(verdict.detail)\" does not say \"\(text)\"")
                }
            }
            if let count = entry.coalesced {
                let posts = explanation.posts.filter { post in
                    post.considered.contains { $0.site?.description == entry.site && $0.delivered }
                }
                let merged = posts.map { post in
                    "\(post.coalesced ?? 0) from "
                        + post.coalescedSites.flatMap { repeatElement($0.site.description, count: $0.count) }.sorted()
                        .joined(separator: ", ")
                }
                let expected = "\(count) from " + (entry.coalescedSites ?? []).sorted().joined(separator: ", ")
                if merged != [expected] {
                    out.append("\(entry.bug) at \(entry.site): merged \(merged), expected [\(expected)]")
                }
            }
        }
        return out
    }
}
