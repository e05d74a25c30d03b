import Dispatch
import Foundation
import NotifyKit
import NotifyLeakCheck
import NotifySession
import NotifyTestSupport
import NotifyTraceApp
import NotifyTraceViewer
import Testing

/// A leak check and notifytop look at the same events: their findings must be the same.
@Suite("LeakCheck's findings equal notifytop's")
struct LeakCheckFidelityTests {
    /// One finding as both sides describe it: everything but the trace's definition ids.
    struct Seen: Hashable, CustomStringConvertible {
        var signature: LeakSignature
        var severity: LeakSeverity
        var isOpen: Bool
        var occurrences: UInt64
        var summary: String
        var count: UInt64

        init(_ finding: LeakFinding) {
            signature = finding.signature
            severity = finding.severity
            isOpen = finding.isOpen
            // R6 is judged at each checkpoint; a checkpoint made while other threads register is
            // ordered against them by call in the leak check's probe and by time in the stream,
            // both true orders of concurrent calls, so how many checkpoints raised it may differ
            // by one. Its series, count and summary must still agree.
            occurrences = finding.rule == .registrationGrowth ? 0 : finding.occurrences
            summary = finding.summary
            count = finding.evidence.count
        }

        var description: String { "\(signature) \(severity) open=\(isOpen) ×\(occurrences) n=\(count): \(summary)" }
    }

    @Test("the demo with its planted bugs: a leak check and a recording replayed by notifytop find the same")
    func sameFindingsAsRecording() throws {
        let sockets = TemporaryDirectory("leakcheck")
        let directory = sockets.path
        let recording = temporaryPath("leakcheck", suffix: ".ndjson")
        defer { unlink(recording) }
        let center = NotifyCenter(label: "leakcheck-fidelity")
        let inspector = try NotifyInspector.start(
            center: center, others: .none, directory: SocketDirectory(path: directory))
        let viewer = RecordingViewer(socketPath: inspector.socketPath, recordingPath: recording)
        let deadline = Date(timeIntervalSinceNow: 10)
        while inspector.viewerCount == 0, Date() < deadline { usleep(1_000) }
        try #require(inspector.viewerCount == 1)

        let report = onDedicatedThread { LeakCheck.run(on: center) { runDemo(on: center, seed: 3) } }
        inspector.stop()
        try #require(viewer.finish(), "the viewer's stream did not end")

        let replayed = try RecordingFold(path: recording)
        #expect(replayed.model.eventsLost == 0)
        #expect(report.droppedEvents == 0)
        let checked = report.findings.map { Seen($0.finding) }
        let shown = replayed.model.findings.sorted { $0.ordinal < $1.ordinal }.map(Seen.init)
        // Every planted bug's rule is there, so the comparison is about something.
        let rules = Set(report.findings.map(\.rule))
        for rule in ["R1", "R2", "R3", "R4", "R5", "R6", "R8", "R9", "R10"] {
            #expect(rules.contains(rule), "no \(rule) in \(report)")
        }
        #expect(
            checked == shown,
            "leak check:\n\(checked.map(\.description).joined(separator: "\n"))\nnotifytop:\n\(shown.map(\.description).joined(separator: "\n"))"
        )
    }
}

/// Reads a socket to its end on a thread of its own, recording it as `notifytop --record` does.
private final class RecordingViewer: @unchecked Sendable {  // the thread only signals `done`
    private let done = DispatchSemaphore(value: 0)

    init(socketPath: String, recordingPath: String) {
        let thread = Thread { [done] in
            defer { done.signal() }
            guard let reader = try? TraceReader.connect(socketPath: socketPath) else { return }
            reader.recorder = try? TraceRecorder(path: recordingPath)
            let deadline = Date(timeIntervalSinceNow: 60)
            while Date() < deadline {
                if case .ended = reader.next(timeoutMilliseconds: 50) { return }
            }
        }
        thread.start()
    }

    /// Waits up to 60 s for the stream to end; false if it did not.
    func finish() -> Bool {
        done.wait(timeout: .now() + 60) == .success
    }
}
