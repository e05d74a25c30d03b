import Foundation
import NotifyDemo
import NotifyTestSupport
import NotifyWire
import NotifyModel
@testable import NotifySession
import NotifyTraceViewer
import Testing

/// The whole path, end to end: the demo through center → socket → a live session's model equals
/// the demo's truth; its `--record` file and its mid-run `r` recording, replayed at speeds 0, 1
/// and 64, in one batch and paced on a simulated wall clock, end in the live model's state.
@Suite(
    "A live session equals the truth, and every replay of its recordings ends where it ended", .timeLimit(.minutes(10)))
struct SessionFidelityTests {
    static let steps = 400

    /// The demo's test configuration with a 20 ms checkpoint interval, so that automatic
    /// checkpoints (R6's samples, R10's waits) happen many times within a run.
    static var configuration: InspectorConfiguration {
        var configuration = InspectorState.demoTestConfiguration
        configuration.rules.checkpointInterval = 20_000_000
        return configuration
    }

    @Test(
        "live model = truth; --record and r replays at speeds 0, 1, 64, batch and paced = live model",
        arguments: [UInt64(31), 32, 33])
    func liveAndReplaysAgree(seed: UInt64) throws {
        let recordPath = temporaryPath("fidelity-record-\(seed)", suffix: ".ndjson")
        let sessionPath = temporaryPath("fidelity-r-\(seed)", suffix: ".ndjson")
        defer {
            unlink(recordPath)
            unlink(sessionPath)
        }
        let run = try LiveDemoSession.run(
            DemoConfiguration(scenario: .steady, seed: seed, slowHandlerMilliseconds: 110), steps: Self.steps,
            configuration: Self.configuration, recordPath: recordPath, sessionRecordingPath: sessionPath)
        let label = "seed \(seed)"
        try #require(run.end != nil, "\(label): the live stream did not end")
        #expect(run.model.checkpoints >= 10, "\(label): \(run.model.checkpoints) automatic checkpoints")
        let mismatches = TruthComparison.mismatches(run.model, run.truth)
        #expect(mismatches.isEmpty, "\(label): live model against --truth:\n\(mismatches.joined(separator: "\n"))")

        #expect(
            run.model.findings.contains { $0.rule == .registrationGrowth }, "\(label): no R6: \(run.model.findingLines)"
        )
        #expect(run.model.findings.contains { $0.rule == .neverPosted }, "\(label): no R10: \(run.model.findingLines)")
        // The `r` recording began mid-run: its replay clock starts later than the raw trace's.
        let recordStart = try #require(try Self.start(of: recordPath))
        let sessionStart = try #require(try Self.start(of: sessionPath))
        #expect(sessionStart > recordStart, "\(label): the r recording starts at the run's start")

        let live = EndState.describe(run.model)
        for (kind, path) in [("--record", recordPath), ("r", sessionPath)] {
            for speed in [0.0, 1, 64] {
                let batch = try Self.replayInOneBatch(path, speed: speed)
                EndState.expectSame(EndState.describe(batch), live, "\(label): \(kind) batch at speed \(speed)")
                let paced = try Self.replayPaced(path, speed: speed)
                EndState.expectSame(EndState.describe(paced), live, "\(label): \(kind) paced at speed \(speed)")
            }
        }
    }

    /// Where a recording's replay clock starts.
    static func start(of path: String) throws -> UInt64? {
        let feed = try ReplayFeed(path: path, speed: 1)
        _ = feed.advance(elapsedNanoseconds: 0)
        return feed.start
    }

    /// A replay as batch mode reads it: everything due handed over in as few passes as possible.
    static func replayInOneBatch(_ path: String, speed: Double) throws -> InspectorState {
        let feed = try ReplayFeed(path: path, speed: speed)
        let session = DashboardSession(source: .replay(feed), configuration: configuration)
        for _ in 0..<1_000 where !feed.isFinished {
            session.ingest(feed.advance(elapsedNanoseconds: 3_600_000_000_000))
        }
        #expect(feed.isFinished, "\(path) at speed \(speed) did not finish")
        return session.model
    }

    /// A replay as the dashboard plays it: polled on a simulated wall clock, 7 ms a pass (an odd
    /// step, so batches straddle the model's checkpoint grid), never sleeping.
    static func replayPaced(_ path: String, speed: Double) throws -> InspectorState {
        let session = DashboardSession(
            source: .replay(try ReplayFeed(path: path, speed: speed)),
            configuration: configuration)
        var wall = CPUMeter.wallNanoseconds()
        for _ in 0..<1_000_000 where !session.isEnded {
            wall += 7_000_000
            session.poll(now: wall)
        }
        #expect(session.isEnded, "\(path) at speed \(speed) did not end")
        return session.model
    }
}

/// A model's end state as sorted lines: what a replay must reproduce of the live session.
enum EndState {
    static func describe(_ model: InspectorState) -> [String] {
        let totals = model.totals
        var lines = [
            "events lost \(model.eventsLost)",
            "live registrations \(model.liveRegistrations)",
            "totals posts \(totals.posts) deliveries \(totals.deliveries) registrations \(totals.registrations)"
                + " removals \(totals.removals) token drops \(totals.tokenDrops) missed removals \(totals.missedRemovals)",
            "checkpoints \(model.checkpoints)",
        ]
        lines += model.findings.map { finding in
            "finding \(finding.rule.code) \(finding.key.subject) [\(finding.evidence.name ?? "?")]"
                + " at \(finding.evidence.callsite?.description ?? "?") ×\(finding.evidence.count)"
                + " \(finding.severity) \(finding.isOpen ? "open" : "resolved")"
        }.sorted()
        lines += model.names.map { row in
            "name \(row.name)\(row.isWildcard ? " (wildcard)" : "") posts \(row.posts) deliveries \(row.deliveries)"
                + " live \(row.liveObservers) unheard \(row.postsWithNoObserver)"
        }.sorted()
        lines += model.threads.map { row in
            "thread \(row.id) \(row.name) posts \(row.posts) deliveries \(row.deliveries)"
                + " in handlers \(row.timeInHandlers) ns"
        }.sorted()
        return lines
    }

    /// Expects equal descriptions; a failure lists the lines that differ (- expected, + actual).
    static func expectSame(
        _ actual: [String], _ expected: [String], _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard actual != expected else { return }
        var diff: [String] = []
        for change in actual.difference(from: expected) {
            switch change {
            case .remove(_, let line, _): diff.append("- \(line)")
            case .insert(_, let line, _): diff.append("+ \(line)")
            }
        }
        Issue.record(
            "\(label) differs from the live model:\n\(diff.prefix(20).joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }
}
