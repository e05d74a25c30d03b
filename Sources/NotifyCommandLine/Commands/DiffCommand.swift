package import ArgumentParser
package import NotifyModel
import NotifySession

/// `notifytop diff A B`: compares two recordings for regression checks. Parsing only; the work
/// happens in `RecordingDiff`.
package struct DiffCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two recordings: observers and deliveries per name, and leak warnings new or resolved in B.",
        discussion: """
            Both files are folded through the same model as --replay. Warnings are matched by rule and \
            by name, file:line or observer type, so two runs of the same program compare. Deliveries per \
            second divide by the time a file's figures cover: for a recording made with r, the history it \
            opens with included.

            A file that is not a trace is an error; malformed lines after a valid header are skipped, as \
            --replay skips them, and counted on standard error. Control characters print as "?".

            Exit status: 0 no new warnings of --fail-on severity, 3 there are some, 2 a file cannot be read \
            or is not a trace, 64 a usage error.
            """)

    @Argument(help: ArgumentHelp("The earlier recording.", valueName: "a"))
    package var a: String

    @Argument(help: ArgumentHelp("The later recording.", valueName: "b"))
    package var b: String

    @Flag(help: "Print one JSON object instead of the table.")
    package var json = false

    // Optional so that help names the default (error) rather than ArgumentParser's raw value.
    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp(
            "Exit 3 when B has new warnings of this severity or worse (default: error).", valueName: "severity"))
    package var failOn: LeakSeverity?

    package init() {}

    package func run() throws {
        let diff: RecordingDiff
        do {
            diff = RecordingDiff(try RecordingFold(path: a), try RecordingFold(path: b))
        } catch {
            NotifyTopRunner.printError("notifytop diff: \(error)")
            throw ExitCode(NotifyTopRunner.unreadableInput)
        }
        for side in [diff.a, diff.b] {
            if let skipped = side.skippedLines {
                NotifyTopRunner.printError("notifytop diff: \(side.path): \(skipped)")
            }
        }
        print(json ? diff.json : diff.text)
        if diff.hasNewWarnings(atLeast: failOn ?? .error) {
            throw ExitCode(NotifyTopRunner.leaksFound)
        }
    }
}
