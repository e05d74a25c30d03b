import Dispatch
import Foundation
import NotifyDemo
import NotifyKit
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTestSupport
import NotifyTraceApp
import NotifyTraceViewer
import NotifyTUI

/// One deterministic demo run watched by a live ``DashboardSession`` as `notifytop --record` runs
/// it: center → inspector socket → ``LiveFeed`` → the session's model, the raw trace recorded from
/// the start, and an `r` recording started with the session's own key halfway through and stopped
/// with it after the stream ended.
struct LiveDemoSession {
    let truth: GroundTruth
    /// The live session's model once the stream ended.
    let model: InspectorState
    let end: String?
    /// How the session's `r` recording stopped (its outcome line).
    let recordingOutcome: String?

    /// Runs `steps` steps of a fresh app, pressing `r` after the first half.
    static func run(
        _ demo: DemoConfiguration, steps: Int, configuration: InspectorConfiguration, recordPath: String,
        sessionRecordingPath: String
    ) throws -> LiveDemoSession {
        let app = DemoApp(demo, steps: steps)
        guard let socketPath = app.socketPath() else {
            throw app.failure ?? TraceError.invalid("the inspector did not start")
        }

        let reader = try TraceReader.connect(socketPath: socketPath)
        reader.recorder = try TraceRecorder(path: recordPath)
        let session = DashboardSession(
            source: .live(LiveFeed(reader: reader)), delayMilliseconds: 50, configuration: configuration)
        session.recordingPath = sessionRecordingPath  // where `r` writes
        defer { session.stopFeed() }

        app.halfway.wait()
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 30), keys: [.char("r")])
        _ = session.run(on: terminal, maxFrames: 2)
        app.resume.signal()

        let deadline = Date(timeIntervalSinceNow: 120)
        while !session.isEnded, Date() < deadline {
            session.poll(now: CPUMeter.wallNanoseconds())
            usleep(2_000)
        }
        let truth = app.finish()
        terminal.pendingKeys = [.char("r")]
        _ = session.run(on: terminal, maxFrames: 2)
        return LiveDemoSession(
            truth: truth, model: session.model,
            end: session.isEnded ? "\(session.status.mode)" : nil,
            recordingOutcome: session.lastMessage)
    }
}

/// The app's side: a center, its inspector and the demo simulation on a thread of their own,
/// waiting for a viewer before the first step and for ``resume`` after the first half.
private final class DemoApp: @unchecked Sendable {  // fields are written before the semaphores that publish them
    let ready = DispatchSemaphore(value: 0)
    let halfway = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var path: String?
    var failure: TraceError?
    private var truth: GroundTruth?

    init(_ configuration: DemoConfiguration, steps: Int) {
        let thread = Thread { [self] in
            defer { done.signal() }
            let directory = SocketDirectory(path: temporaryPath("demo-session"))
            defer { rmdir(directory.path) }
            let center = NotifyCenter(label: "demo-session-test")
            let inspector: NotifyInspector
            do throws(TraceError) {
                inspector = try NotifyInspector.start(center: center, others: .none, directory: directory)
            } catch {
                failure = error
                ready.signal()
                halfway.signal()
                return
            }
            path = inspector.socketPath
            ready.signal()
            _ = eventually(seconds: 10) { inspector.viewerCount > 0 }  // a missed attach fails the comparison
            let simulation = DemoSimulation(configuration: configuration, center: center)
            simulation.run(steps: steps / 2)
            halfway.signal()
            resume.wait()
            simulation.run(steps: steps - steps / 2)
            truth = simulation.groundTruth()
            inspector.stop()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The inspector's socket, once it listens; nil if it could not start.
    func socketPath() -> String? {
        ready.wait()
        return path
    }

    /// Waits for the run to finish and returns its ground truth.
    func finish() -> GroundTruth {
        done.wait()
        return truth!
    }
}
