package import NotifyWire
import NotifyTraceViewer

/// `notifytop export REC --perfetto OUT.json` and the dashboard's `export perfetto`: a trace as a
/// new Chrome Trace Event Format file (``PerfettoTraceWriter``), written as it is read.
///
/// The file is created, never overwritten: a name that exists (a link, even one pointing nowhere)
/// is a one-line error, and the file gets its name only once complete, so a failed export leaves none.
package enum PerfettoExport {
    /// Why an export failed, in one line naming the file.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        /// Whether the output could not be written (rather than the input read).
        package var isOutput = false

        init(description: String, isOutput: Bool = false) {
            self.description = description
            self.isOutput = isOutput
        }

        /// The output file could not be made.
        init(_ failure: NewFile.Failure) {
            self.init(description: failure.description, isOutput: true)
        }
    }

    /// Bytes gathered before each write.
    static let chunk = 1 << 20

    /// Exports the recording at `recording` to the new file `path`.
    ///
    /// - Returns: What the file holds, and the recording's skipped lines ("3 lines skipped …"), if any.
    package static func export(recording: String, to path: String) throws(Failure) -> (
        counts: PerfettoTraceWriter.Counts, skippedLines: String?
    ) {
        let reader: TraceReader
        do { reader = try TraceReader.open(file: recording) } catch { throw Failure(description: "\(error)") }
        var failure: Failure?
        let counts = try write(to: path) { add in
            reading: while true {
                switch reader.next() {
                case .event(let event): add(event)
                case .idle: continue
                case .ended(.failed(let message)):
                    failure = Failure(description: message)
                    return false
                case .ended: break reading
                }
            }
            return true
        }
        if let failure { throw failure }
        return (counts, reader.skippedLines)
    }

    /// Exports `events` to the new file `path`.
    package static func export(events: some Sequence<TraceEvent>, to path: String) throws(Failure)
        -> PerfettoTraceWriter.Counts
    {
        try write(to: path) { add in
            for event in events { add(event) }
            return true
        }
    }

    /// Creates `path` (``NewFile``: whole or not at all), hands `produce` a function that adds
    /// events, and writes as they come; leaves no file when `produce` returns false or a write fails.
    private static func write(
        to path: String, _ produce: (_ add: (TraceEvent) -> Void) -> Bool
    ) throws(Failure) -> PerfettoTraceWriter.Counts {
        let file: NewFile
        do throws(NewFile.Failure) { file = try NewFile(creating: path) } catch { throw Failure(error) }
        var writer = PerfettoTraceWriter()
        let complete = produce { event in
            writer.add(event)
            if writer.pendingByteCount >= chunk { file.write(writer.take()) }
        }
        guard complete else {
            file.abandon()
            return writer.counts
        }
        writer.finish()
        file.write(writer.take())
        do throws(NewFile.Failure) { try file.publish() } catch { throw Failure(error) }
        return writer.counts
    }

    /// One line on what a file holds: `1520 deliveries, 800 posts, 1520 arrows, 3 findings`.
    package static func summary(_ counts: PerfettoTraceWriter.Counts) -> String {
        var parts = [
            "\(counts.deliveries) deliveries", "\(counts.posts) posts", "\(counts.flows) arrows",
            "\(counts.findings) findings", "\(counts.threads) threads",
        ]
        if counts.deliveriesWithoutPost > 0 {
            parts.append("\(counts.deliveriesWithoutPost) deliveries without their post")
        }
        if counts.adjusted > 0 { parts.append("\(counts.adjusted) slices moved to nest") }
        return parts.joined(separator: ", ")
    }
}
