import Dispatch
import Foundation
import NotifyDemo
import NotifyTestSupport
import NotifyWire
import NotifyKit
import NotifySystem
import NotifyTraceApp
import NotifyTraceViewer

/// One deterministic run of the demo as a viewer receives it: through a ``NotifyInspector`` socket
/// in a private directory, read by a ``TraceReader`` on its own thread, attached before the app
/// registers anything.
///
/// This is the input a model-based check folds (the trace events, exactly as notifytop gets them);
/// ``truth`` is what the fidelity check compares the model's numbers against.
struct RecordedDemoTrace: Sendable {
    let events: [TraceEvent]
    let truth: GroundTruth
    /// How the stream ended; `.producerStopped` when the run finished normally.
    let end: TraceStreamEnd?
    /// Stream times of the marks taken between chunks of steps (see `markEvery`), on the trace's
    /// clock (``MonotonicClock``): every event of a chunk is stamped before its mark and every
    /// event of the next chunk after it. Empty unless marks were asked for.
    let marks: [UInt64]

    /// Records `steps` steps of a fresh app.
    ///
    /// - Parameters:
    ///   - markEvery: Runs the steps in chunks of this many and notes the time after each chunk:
    ///     the "test step" marks a model folding the events checkpoints at. The chunking adds a
    ///     run-loop flush at each chunk's end, so the sequence differs from an unchunked run of
    ///     the same seed (it is still fixed by the seed and the chunk size).
    ///   - recordingPath: Also writes the bytes the viewer received to this file, exactly as
    ///     `notifytop --record` does, for a replay with `TraceReader.open(file:)`.
    ///   - attachAfter: The viewer attaches once this many steps have run (at a chunk's end when
    ///     `markEvery` is given): a late viewer, which sees what came before only through the
    ///     snapshot's history.
    ///   - untilEveryBugRecurs: With `markEvery`, keeps running chunks past `steps` (at most this many
    ///     steps more) until the app has planted every recurring bug again since the viewer attached,
    ///     as an app that goes on running does: a bug whose every instance began and ended before the
    ///     attach leaves nothing a late viewer could find.
    /// Bugs planted once, at launch, by objects that live as long as the app: they stay live, so a
    /// late viewer finds them in the snapshot without their recurring.
    static let plantedAtLaunch: Set<String> = [
        DemoBug.droppedToken.rawValue, DemoBug.selfCapture.rawValue, DemoBug.neverPosted.rawValue,
    ]

    static func record(
        _ configuration: DemoConfiguration, steps: Int, markEvery: Int? = nil, recordingPath: String? = nil,
        attachAfter: Int = 0, untilEveryBugRecurs: Int = 0
    ) throws -> RecordedDemoTrace {
        try onDedicatedThread { () -> Result<RecordedDemoTrace, TraceError> in
            let directory = SocketDirectory(path: temporaryPath("demo-test"))
            defer { rmdir(directory.path) }
            let center = NotifyCenter(label: "demo-trace-test")
            let sync = NotifyCenter(label: "demo-trace-test.sync")
            do throws(TraceError) {
                var recorder: TraceRecorder?
                if let recordingPath { recorder = try TraceRecorder(path: recordingPath) }
                let inspector = try NotifyInspector.start(centers: [center, sync], others: .none, directory: directory)
                var viewer: Viewer?
                func attach() {
                    viewer = Viewer(socketPath: inspector.socketPath, recorder: recorder)
                    _ = eventually(seconds: 5) { inspector.viewerCount > 0 }  // a missed attach fails the comparison
                }
                if attachAfter <= 0 { attach() }
                let simulation = DemoSimulation(configuration: configuration, center: center, syncCenter: sync)
                var marks: [UInt64] = []
                if let chunk = markEvery, chunk > 0 {
                    var done = 0
                    var plantedAtAttach: [Int] = []
                    func everyBugRecurred() -> Bool {
                        zip(simulation.groundTruth().bugs, plantedAtAttach).allSatisfy { bug, then in
                            plantedAtLaunch.contains(bug.bug) || bug.instances > then
                        }
                    }
                    while done < steps || (done < steps + untilEveryBugRecurs && !everyBugRecurred()) {
                        let count = done < steps ? min(chunk, steps - done) : chunk
                        simulation.run(steps: count)
                        done += count
                        marks.append(MonotonicClock.now())
                        if viewer == nil, done >= attachAfter {
                            attach()
                            plantedAtAttach = simulation.groundTruth().bugs.map(\.instances)
                        }
                    }
                } else if attachAfter > 0 {
                    simulation.run(steps: min(attachAfter, steps))
                    attach()
                    simulation.run(steps: max(0, steps - attachAfter))
                } else {
                    simulation.run(steps: steps)
                }
                if viewer == nil { attach() }
                let truth = simulation.groundTruth()
                inspector.stop()
                let (events, end) = viewer!.finish()
                return .success(RecordedDemoTrace(events: events, truth: truth, end: end, marks: marks))
            } catch {
                return .failure(error)
            }
        }.get()
    }
}

/// Reads a socket to its end on a thread of its own, as notifytop does, so the producer never
/// finds the viewer's buffer full.
private final class Viewer: @unchecked Sendable {  // `events` and `end` are written before `done` signals
    private var events: [TraceEvent] = []
    private var end: TraceStreamEnd?
    private let done = DispatchSemaphore(value: 0)
    /// Used only by the reading thread once it starts.
    private let recorder: TraceRecorder?

    init(socketPath: String, recorder: TraceRecorder? = nil) {
        self.recorder = recorder
        let thread = Thread { [self] in
            defer { done.signal() }
            guard let reader = try? TraceReader.connect(socketPath: socketPath) else { return }
            // The reader flushes the recording when the stream ends.
            reader.recorder = self.recorder
            let deadline = Date(timeIntervalSinceNow: 60)
            while Date() < deadline {
                switch reader.next(timeoutMilliseconds: 50) {
                case .event(let event): events.append(event)
                case .idle: continue
                case .ended(let how):
                    end = how
                    return
                }
            }
        }
        thread.start()
    }

    /// Waits for the stream to end and returns what was read.
    func finish() -> ([TraceEvent], TraceStreamEnd?) {
        done.wait()
        return (events, end)
    }
}

extension RecordedDemoTrace {
    /// Deliveries the machine stalled (see ``MachineStall``), sparing the handler a planted bug
    /// makes slow.
    func stalls(bugs: [DemoBug]) -> [String] {
        let slow = bugs.contains(.slowMainHandler) ? DemoBug.slowMainHandler.name.string : nil
        return MachineStall.stalls(
            events.lazy.compactMap { event -> (name: String, duration: UInt64)? in
                guard case .delivered(let delivery) = event else { return nil }
                return (delivery.name, delivery.duration)
            }, sparing: slow)
    }
}
