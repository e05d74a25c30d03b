package import ArgumentParser
import NotifySession

/// `notifytop export REC --perfetto OUT.json`: a recording as a timeline for ui.perfetto.dev.
/// Parsing only; the work happens in `PerfettoExport`.
package struct ExportCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a recording as a Chrome Trace Event Format file for ui.perfetto.dev or chrome://tracing.",
        discussion: """
            Each delivery is a slice on its thread's track, each post a slice on the posting thread, with an \
            arrow from the post to each of its deliveries (its length is the queue or mailbox wait); leak \
            findings, checkpoints and gaps are instants on a "notifytop" track. The --perfetto file is created, \
            never overwritten. Malformed lines are skipped, as --replay skips them, and counted on standard error.

            Exit status: 0 written, 1 the file cannot be written (it exists), 2 the recording cannot be read or is not \
            a trace, 64 a usage error.
            """)

    @Argument(help: ArgumentHelp("The recording.", valueName: "recording"))
    package var recording: String

    @Option(help: ArgumentHelp("The file to create (never overwritten).", valueName: "file"))
    package var perfetto: String

    package init() {}

    package func run() throws {
        let result: (counts: PerfettoTraceWriter.Counts, skippedLines: String?)
        do {
            result = try PerfettoExport.export(recording: recording, to: perfetto)
        } catch {
            NotifyTopRunner.printError("notifytop export: \(error)")
            throw ExitCode(error.isOutput ? 1 : NotifyTopRunner.unreadableInput)
        }
        if let skipped = result.skippedLines {
            NotifyTopRunner.printError("notifytop export: \(recording): \(skipped)")
        }
        NotifyTopRunner.printError("notifytop export: wrote \(perfetto): " + PerfettoExport.summary(result.counts))
    }
}
