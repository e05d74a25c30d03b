import NotifyDemo
import NotifyTestSupport
import NotifyTraceViewer
import NotifyWire
import NotifyModel
import Testing

/// The demo's planted bugs against the inspector model: the trace a viewer receives over a real
/// inspector socket, folded into ``InspectorState``, must raise exactly the rule each bug names
/// (``DemoBug/rule``) and nothing else; the clean app must raise nothing at all.
@Suite("The inspector model finds each planted bug, and nothing in a clean run", .timeLimit(.minutes(10)))
struct ModelFindingTests {
    /// Long enough for every bug to be planted (the crash reporter starts at main-lane step 100)
    /// and for R6 and R10 to see their checkpoints.
    static let steps = 500
    /// A checkpoint every this many steps: 10 in a run, past the launch tour (which posts every
    /// clean name) by the third.
    static let stepsPerCheckpoint = 50

    @Test(
        "each planted bug, enabled alone, raises its own rule in the model and no finding of another rule",
        arguments: DemoBug.allCases, [UInt64(3), 8])
    func bugRaisesItsRule(_ bug: DemoBug, seed: UInt64) throws {
        let rule = try #require(LeakRule(demoRule: bug.rule), "\(bug.rawValue): no model rule is named \(bug.rule)")
        let run = try MachineStall.retrying(
            {
                try RecordedDemoTrace.record(
                    DemoConfiguration(scenario: .steady, seed: seed, bugs: [bug]), steps: Self.steps,
                    markEvery: Self.stepsPerCheckpoint)
            }, stalls: { $0.stalls(bugs: [bug]) })
        #expect(run.end != nil && run.end != .disconnected, "stream ended \(String(describing: run.end))")
        #expect(run.truth.bugs.first?.instances ?? 0 > 0, "\(bug.rawValue) was never planted")

        let state = InspectorState.fold(run)
        #expect(state.eventsLost == 0)
        #expect(state.checkpoints >= 4)
        let raised = Set(state.findings.map(\.rule))
        #expect(raised == [rule], "\(bug.rawValue) (\(bug.rule)), seed \(seed): \(state.findingLines)")
        for finding in state.findings where finding.rule == rule {
            #expect(
                finding.evidence.name == bug.findingName.string,
                "\(bug.rawValue): finding about \(finding.evidence.name ?? "?"): \(finding.summary)")
        }
    }

    @Test(
        "the clean app (--no-bugs) raises no finding at all",
        arguments: [DemoScenario.steady, .leaky], [UInt64(1), 2, 3])
    func cleanRunRaisesNothing(scenario: DemoScenario, seed: UInt64) throws {
        let run = try MachineStall.retrying(
            {
                try RecordedDemoTrace.record(
                    DemoConfiguration(scenario: scenario, seed: seed, bugs: []), steps: Self.steps,
                    markEvery: Self.stepsPerCheckpoint)
            }, stalls: { $0.stalls(bugs: []) })
        #expect(run.truth.bugs.isEmpty)
        let state = InspectorState.fold(run)
        #expect(state.eventsLost == 0)
        #expect(state.checkpoints >= 4)
        #expect(state.findings.isEmpty, "\(scenario.rawValue) seed \(seed): \(state.findingLines)")
    }
}
