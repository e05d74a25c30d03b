import Foundation
import NotifyDemo
import NotifyModel
import NotifyTestSupport
import NotifyTraceViewer
import NotifyWire
import Testing

/// A viewer that attaches seconds into a run ends with the whole run's truth: every per-name and
/// per-thread figure, the live registrations and every planted bug, from the snapshot's history
/// plus the events after it; and the recording of what that viewer received refolds to the same.
///
/// The runs go one at a time, each on a thread of its own: twenty demos at once would hold every
/// thread of the test pool (or the CPU) while the other suites wait.
@Suite("A late viewer's final state equals the whole run's truth", .serialized, .timeLimit(.minutes(10)))
struct LateAttachFidelityTests {
    static let steps = 400
    static let stepsPerCheckpoint = 50
    /// At most this many steps past `steps` while a bug planted before the attach has not recurred.
    static let recurrenceSteps = 1_500

    /// Seeds and the step the viewer attaches after: 20 runs, 4 attach times.
    static let runs: [(seed: UInt64, attachAfter: Int)] = (0..<20).map { (index: Int) -> (UInt64, Int) in
        (UInt64(21 + index), 100 + 50 * (index % 4))
    }

    @Test("figures, threads and planted bugs of a viewer attached 100 to 250 steps in", arguments: runs)
    func lateViewerMatchesTruth(seed: UInt64, attachAfter: Int) async throws {
        let path = temporaryPath("demo-late-\(seed)", suffix: ".jsonl")
        defer { unlink(path) }
        let run = try await awaitingDedicatedThread {
            Result {
                try RecordedDemoTrace.record(
                    DemoConfiguration(scenario: .steady, seed: seed, slowHandlerMilliseconds: 110), steps: Self.steps,
                    markEvery: Self.stepsPerCheckpoint, recordingPath: path, attachAfter: attachAfter,
                    untilEveryBugRecurs: Self.recurrenceSteps)
            }
        }.get()
        #expect(run.end == .producerStopped("inspector-stopped"))
        let truth = run.truth
        let label = "seed \(seed), attached after \(attachAfter) steps"
        #expect(
            !run.events.contains { if case .posted(let post) = $0 { post.seq == 1 } else { false } },
            "\(label): the viewer attached late, after the first post")

        let reader = try TraceReader.open(file: path)
        var recorded: [TraceEvent] = []
        while case .event(let event) = reader.next() { recorded.append(event) }
        #expect(reader.malformedLines == 0)
        let live = InspectorState.fold(run)
        let replayed = InspectorState.fold(recorded, marks: run.marks)
        for (state, how) in [(live, "live"), (replayed, "replayed")] {
            let label = "\(label), \(how)"
            #expect(state.eventsLost == 0, "\(label): events lost")
            #expect(state.totals.posts == UInt64(truth.posts), "\(label): posts")
            #expect(state.totals.deliveries == UInt64(truth.deliveries), "\(label): deliveries")
            #expect(state.liveRegistrations == truth.registrationsLive, "\(label): live registrations")

            #expect(TruthComparison.figureMismatches(state, truth) == [], "\(label)")
            // Only threads the app has: none listed for having accepted the viewer.
            let known = Set(truth.threads.map(\.id))
            let idle = state.threads.filter { $0.posts == 0 && $0.deliveries == 0 && !known.contains($0.id) }
            #expect(idle.isEmpty, "\(label): threads the app never used: \(idle.map(\.name))")
            #expect(TruthComparison.bugMismatches(state, truth, exactRules: true) == [], "\(label)")
            // The snapshot tells a filter object's death before the token release it caused.
            let plantedOrphans = Set(
                truth.bugs.filter { LeakRule(demoRule: $0.rule) == .orphanedRegistration }.map(\.name))
            let orphans = Set(state.findings.filter { $0.rule == .orphanedRegistration }.compactMap(\.evidence.name))
            #expect(orphans == plantedOrphans, "\(label): R1")
            let neverPosted = Set(state.findings.filter { $0.rule == .neverPosted }.compactMap(\.evidence.name))
            #expect(
                neverPosted.isDisjoint(with: truth.postsByName.keys), "\(label): R10 for names posted before the attach"
            )
        }
    }
}
