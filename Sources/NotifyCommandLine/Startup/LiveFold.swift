import Foundation
package import NotifyModel
import NotifySession
import NotifyTraceViewer
import NotifyWire

/// `notifytop explain --pid P`: attaches as the dashboard does (`--pid`, `--socket`,
/// `--foundation --pid`, `--ssh HOST --pid P`), folds the stream through the model for a bounded time or until it ends,
/// then detaches, so a live process is explained exactly as a recording of the same events.
package struct LiveFold: Sendable {
    /// Why attaching failed, as one line.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The model after the last event folded.
    package let model: InspectorState
    /// Events folded.
    package let events: Int
    /// How the stream ended, when it ended before the time was up; nil when the time ran out.
    package let ended: String?

    /// How long `explain --pid` folds by default.
    package static let defaultDuration: UInt64 = 2_000_000_000

    /// Attaches to what `options` names and folds for at most `duration` nanoseconds of wall time.
    package init(_ options: NotifyTopOptions, for duration: UInt64) throws(Failure) {
        let host = NotifyTopRunner.makeHost(options)
        defer { host.close() }
        let opened: OpenedSource
        do { opened = try OpenedSource(options, host: host) } catch {
            throw Failure(description: "\(error)")
        }
        guard case .live(let feed) = opened.source else {
            opened.close()
            throw Failure(description: "explain attaches to one live process: give --pid or --socket")
        }
        var model = InspectorState()
        var count = 0
        var ended: String?
        func fold() -> TraceStreamEnd? {
            feed.drain { batches in
                for batch in batches {
                    for event in batch {
                        model.apply(event)
                        if let time = event.timestamp { model.tick(now: time) }
                    }
                    count += batch.count
                }
            }.end
        }
        let deadline = CPUMeter.wallNanoseconds() + duration
        while true {
            if let end = fold() {
                ended = "\(end)"
                break
            }
            if CPUMeter.wallNanoseconds() >= deadline { break }
            usleep(10_000)
        }
        // Detach, then fold what the reader had read by then: every event a --record file holds.
        opened.close()
        _ = fold()
        self.model = model
        self.events = count
        self.ended = ended
    }
}
