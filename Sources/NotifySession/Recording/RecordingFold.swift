package import NotifyWire
package import NotifyModel

/// A whole recording folded through the model, as `notifytop diff` compares them.
///
/// Read as `--replay` reads it, no stricter and no looser: a file that is not a trace (its first
/// line is no valid header) is an error; malformed lines after the header are skipped, and
/// ``skippedLines`` says how many and where, so a diff never compares less than it claims unsaid.
package struct RecordingFold: Sendable {
    /// Why a recording could not be folded.
    package struct Failure: Error, CustomStringConvertible {
        /// One line for the user, naming the file.
        package let description: String
    }

    /// The file read.
    package let path: String
    /// The model after the last event.
    package let model: InspectorState
    /// Stream nanoseconds the recording's figures cover: from its first timed event (a recording
    /// started with `r` opens with the history the session saw before, which the totals include),
    /// or from the header's `since` when it carries the history of a viewer that attached late,
    /// to its last. Thread definitions do not count: a thread's line may carry the time it was
    /// first seen, long before.
    package let duration: UInt64
    /// Stream nanoseconds recorded as they happened: from the header's clock (when `r` was
    /// pressed, for a recording that opens with history) or the first timed event, if later, to the last.
    package let recorded: UInt64
    /// "3 lines skipped (first at line 101)" when malformed lines were skipped; nil otherwise.
    package let skippedLines: String?

    /// A recording's events folded one at a time, as `RecordingFold(path:)` reads them: the model ticked
    /// at every timed event as a live session would, and the span the figures cover.
    package struct Folding: Sendable {
        package private(set) var model = InspectorState()
        private var first: UInt64?
        private var last: UInt64 = 0
        private var recordedFrom: UInt64?

        /// Nothing folded yet.
        package init() {}

        /// Nothing folded yet, into a model of `configuration`.
        package init(configuration: InspectorConfiguration) {
            model = InspectorState(configuration: configuration)
        }

        /// Folds one event.
        package mutating func add(_ event: TraceEvent) {
            model.apply(event)
            // A viewer that attached late got the process's history, counted from the header's
            // `since`: the figures cover that time too, not only from the history line's own time.
            if case .history = event, let since = model.header?.since { first = min(first ?? since, since) }
            guard let time = event.timestamp else { return }
            if case .thread = event {
            } else {
                first = min(first ?? time, time)
                // A mid-session recording's prelude predates its header's clock: not recorded time.
                if recordedFrom == nil { recordedFrom = max(time, model.header?.clockMono ?? time) }
            }
            last = max(last, time)
            model.tick(now: time)
        }

        var duration: UInt64 { first.map { last > $0 ? last - $0 : 0 } ?? 0 }
        var recorded: UInt64 { recordedFrom.map { last > $0 ? last - $0 : 0 } ?? 0 }
    }

    /// The recording at `path` as `folding` holds it; not a trace without a header.
    package init(path: String, folding: Folding, skippedLines: String?) throws(Failure) {
        guard folding.model.header != nil else {
            throw Failure(description: "\(path): not a notifytop trace (no header line)")
        }
        self.path = path
        model = folding.model
        duration = folding.duration
        recorded = folding.recorded
        self.skippedLines = skippedLines
    }
}
