import Glibc
package import NotifyWire
import NotifyTraceViewer

/// `notifytop export REC --perfetto OUT.json` and the dashboard's `export perfetto`: a trace as a
/// new Chrome Trace Event Format file (``PerfettoTraceWriter``), written as it is read.
///
/// The file is created, never overwritten: a name that exists (a link, even one pointing nowhere)
/// is a one-line error, and a file left incomplete by an error is removed.
package enum PerfettoExport {
    /// Why an export failed, in one line naming the file.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        /// Whether the output could not be written (rather than the input read).
        package var isOutput = false
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

    /// Creates `path`, hands `produce` a function that adds events, and writes as they come;
    /// removes the file when `produce` returns false or a write fails.
    private static func write(
        to path: String, _ produce: (_ add: (TraceEvent) -> Void) -> Bool
    ) throws(Failure) -> PerfettoTraceWriter.Counts {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST || code == ELOOP {
                throw Failure(description: "\(path) exists: notifytop does not overwrite a file", isOutput: true)
            }
            throw Failure(description: "cannot create \(path): \(String(cString: strerror(code)))", isOutput: true)
        }
        var writer = PerfettoTraceWriter()
        var writeError: Int32?
        func flush() {
            guard writeError == nil else {
                _ = writer.take()
                return
            }
            writeError = writeAll(fd, writer.take())
        }
        let complete = produce { event in
            writer.add(event)
            if writer.pendingByteCount >= chunk { flush() }
        }
        writer.finish()
        flush()
        if close(fd) != 0 && writeError == nil { writeError = errno }
        if let writeError {
            unlink(path)
            throw Failure(description: "cannot write \(path): \(String(cString: strerror(writeError)))", isOutput: true)
        }
        if !complete { unlink(path) }
        return writer.counts
    }

    /// Writes all of `bytes`; the error number on failure.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return written < 0 ? errno : ENOSPC }
            offset += written
        }
        return nil
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
