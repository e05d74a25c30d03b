import Foundation
import NotifyDemo
import NotifyTestSupport
import NotifyWire
import NotifyModel
import NotifyTraceViewer
import Testing

/// The demo's ground truth against the model's end state, over several seeds, through a real
/// center → inspector socket → reader → model; and the session's recording refolded in one batch
/// and event by event, which must end in the same state.
@Suite(
    "The model's end state equals the demo's truth, and batch and incremental refolds agree", .timeLimit(.minutes(10)))
struct TruthFidelityTests {
    static let steps = 400
    static let stepsPerCheckpoint = 50

    @Test(
        "counts, live registrations per name, per-thread posts, totals and planted bugs' names",
        arguments: [UInt64(21), 22, 23])
    func endStateEqualsTruth(seed: UInt64) throws {
        let path = temporaryPath("demo-truth-\(seed)", suffix: ".jsonl")
        defer { unlink(path) }
        let run = try RecordedDemoTrace.record(
            DemoConfiguration(scenario: .steady, seed: seed, slowHandlerMilliseconds: 110), steps: Self.steps,
            markEvery: Self.stepsPerCheckpoint, recordingPath: path)
        #expect(run.end == .producerStopped("inspector-stopped"))
        let truth = run.truth
        let state = InspectorState.fold(run)
        let label = "seed \(seed)"
        #expect(state.eventsLost == 0, "\(label): events lost")

        // Totals.
        #expect(state.totals.posts == UInt64(truth.posts), "\(label): posts")
        #expect(state.totals.deliveries == UInt64(truth.deliveries), "\(label): deliveries")
        #expect(state.totals.registrations == UInt64(truth.registrations), "\(label): registrations made")
        #expect(state.totals.removals == UInt64(truth.removals), "\(label): registrations ended")
        #expect(state.liveRegistrations == truth.registrationsLive, "\(label): live registrations")

        #expect(TruthComparison.figureMismatches(state, truth) == [], "\(label)")
        #expect(truth.registrationsByName.values.reduce(0, +) == truth.registrations)
        #expect(truth.bugs.count == DemoBug.allCases.count)
        for bug in truth.bugs { #expect(bug.instances > 0, "\(label): \(bug.bug) was never planted") }
        #expect(TruthComparison.bugMismatches(state, truth, exactRules: true) == [], "\(label)")

        // The recording, refolded in one batch and event by event.
        let reader = try TraceReader.open(file: path)
        var recorded: [TraceEvent] = []
        while case .event(let event) = reader.next() { recorded.append(event) }
        #expect(reader.malformedLines == 0)
        #expect(recorded == run.events, "\(label): the recording reads back \(recorded.count) of \(run.events.count)")
        let configuration = InspectorState.demoTestConfiguration
        var batch = InspectorState(configuration: configuration)
        batch.apply(recorded)
        if let last = recorded.last(where: { $0.timestamp != nil })?.timestamp { batch.tick(now: last) }
        batch.checkpoint()
        var incremental = InspectorState(configuration: configuration)
        for event in recorded {
            incremental.apply(event)
            if let time = event.timestamp { incremental.tick(now: time) }
        }
        incremental.checkpoint()

        #expect(batch.totals == incremental.totals, "\(label): totals")
        #expect(batch.liveRegistrations == incremental.liveRegistrations, "\(label): live registrations")
        #expect(batch.names == incremental.names, "\(label): names")
        #expect(batch.threads == incremental.threads, "\(label): threads")
        #expect(batch.registrations == incremental.registrations, "\(label): registrations")
        let timeBased: Set<LeakRule> = [.registrationGrowth, .neverPosted]
        #expect(
            FindingLine.lines(batch, excluding: timeBased) == FindingLine.lines(incremental, excluding: timeBased),
            "\(label): findings of the event-driven rules")
        // Automatic checkpoints fall on the event clock's grid, which a batch fold crosses too.
        #expect(
            FindingLine.lines(batch, only: timeBased) == FindingLine.lines(incremental, only: timeBased),
            "\(label): findings of R6 and R10")
        #expect(batch.checkpoints == incremental.checkpoints, "\(label): automatic checkpoints")
    }
}

/// A finding as the fidelity comparison sees it: rule, key, name, site, count, severity, state.
private struct FindingLine: Hashable, CustomStringConvertible {
    let rule: LeakRule
    let key: String
    let name: String?
    let site: String?
    let count: UInt64
    let severity: LeakSeverity
    let open: Bool

    var description: String {
        "\(rule.code) \(key) [\(name ?? "?")] at \(site ?? "?") ×\(count) \(severity) \(open ? "open" : "resolved")"
    }

    static func lines(
        _ state: InspectorState, excluding excluded: Set<LeakRule> = [], only: Set<LeakRule>? = nil
    ) -> [FindingLine] {
        state.findings.filter { !excluded.contains($0.rule) && (only?.contains($0.rule) ?? true) }.map { finding in
            FindingLine(
                rule: finding.rule, key: "\(finding.key.subject)", name: finding.evidence.name,
                site: finding.evidence.callsite?.description, count: finding.evidence.count,
                severity: finding.severity, open: finding.isOpen)
        }
    }
}
