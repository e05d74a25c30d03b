import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
import NotifyModel
import NotifySystem
import NotifyTraceViewer

/// What really happened in the fidelity workload, recorded by the posters and the handlers.
final class CenterTruth: @unchecked Sendable {  // `lock` guards every field
    private let lock = NSLock()
    private(set) var postsByName: [String: UInt64] = [:]
    private(set) var deliveriesByName: [String: UInt64] = [:]
    private(set) var postsByThread: [UInt64: UInt64] = [:]
    private(set) var deliveriesByThread: [UInt64: UInt64] = [:]

    /// Called by a handler: one delivery of `name` on the calling thread.
    func delivered(_ name: Notification.Name) {
        let thread = NotifyThread.current.id
        lock.withLock {
            deliveriesByName[name.rawValue, default: 0] += 1
            deliveriesByThread[thread, default: 0] += 1
        }
    }

    /// Posts `name` on `center` from the calling thread and records it.
    func post(_ name: Notification.Name, on center: NotifyCenter, object: AnyObject? = nil) {
        let thread = NotifyThread.current.id
        lock.withLock {
            postsByName[name.rawValue, default: 0] += 1
            postsByThread[thread, default: 0] += 1
        }
        center.post(name: name, object: object)
    }

    var snapshot:
        (
            postsByName: [String: UInt64], deliveriesByName: [String: UInt64],
            postsByThread: [UInt64: UInt64], deliveriesByThread: [UInt64: UInt64]
        )
    {
        lock.withLock { (postsByName, deliveriesByName, postsByThread, deliveriesByThread) }
    }
}

/// An observer object of the workload: a screen, a sync service, a sender.
final class Screen: @unchecked Sendable {  // immutable after init
    let truth: CenterTruth
    init(_ truth: CenterTruth) { self.truth = truth }
    /// A target–action method.
    func receive(_ note: Notification) { truth.delivered(note.name) }
    func touch() {}
}

/// Allocates screens, all kept alive, until one lands at `address` (a dead object's identity),
/// right after `release` drops the last reference to the object there.
func allocateScreens(
    untilReusing address: ObjectIdentifier, truth: CenterTruth, afterReleasing release: () -> Void,
    limit: Int = 5_000
) -> (screens: [Screen], reused: Bool) {
    release()
    var screens: [Screen] = []
    while screens.count < limit {
        let screen = Screen(truth)
        screens.append(screen)
        if ObjectIdentifier(screen) == address { return (screens, true) }
    }
    return (screens, false)
}

/// Reads a live stream on its own thread, as a viewer does, so the producer never waits on a
/// full socket; `finish()` returns every event once the stream ends.
final class BackgroundReader: @unchecked Sendable {  // `events` and `end` are written before `done` signals
    private let reader: TraceReader
    private let done = DispatchSemaphore(value: 0)
    private var events: [TraceEvent] = []
    private var end: TraceStreamEnd?

    init(_ reader: TraceReader) {
        self.reader = reader
        let thread = Thread { [self] in
            while true {
                switch self.reader.next(timeoutMilliseconds: 20) {
                case .event(let event): events.append(event)
                case .idle: continue
                case .ended(let end):
                    self.end = end
                    done.signal()
                    return
                }
            }
        }
        thread.name = "fidelity-reader"
        thread.start()
    }

    /// Waits (up to 10 s) for the end of the stream.
    func finish() -> (events: [TraceEvent], end: TraceStreamEnd?) {
        _ = done.wait(timeout: .now() + 10)
        return (events, end)
    }
}

extension TemporaryDirectory {
    /// The temporary path as the inspector's private socket directory, which the inspector creates.
    var socketDirectory: SocketDirectory { SocketDirectory(path: path) }
    /// A recording beside the sockets, removed with them.
    var recordingPath: String { path + "/session.jsonl" }
}

extension InspectorState {
    /// Folds `events` as a viewer does: apply, then tick with the event's time.
    static func fold(_ events: [TraceEvent], configuration: InspectorConfiguration) -> InspectorState {
        var state = InspectorState(configuration: configuration)
        for event in events {
            state.apply(event)
            if let t = event.timestamp { state.tick(now: t) }
        }
        state.checkpoint()
        return state
    }
}
