package import ArgumentParser
import NotifyLeakBaseline
import NotifySession

/// `notifytop baseline REC`: prints the signatures of a recording's leak findings, the file
/// `--baseline` reads. Parsing only; the work happens in `LeakBaseline`.
package struct BaselineCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Print the signatures of a recording's leak findings: the known.json that --baseline reads.",
        discussion: """
            The recording is folded through the same model as --replay. A signature is a finding's rule, \
            notification name, registration site (file:line) and owner type: no ids or addresses, so it \
            matches the same finding in another run. Every finding counts, open or resolved.

            Typical use: notifytop baseline main.ndjson > known.json, commit known.json, then in CI \
            notifytop --replay run.ndjson --batch --fail-on error --baseline known.json.

            Exit status: 0 written, 2 the file cannot be read or is not a trace, 64 a usage error.
            """)

    @Argument(help: ArgumentHelp("The recording.", valueName: "recording"))
    package var recording: String

    package init() {}

    package func run() throws {
        let fold: RecordingFold
        do {
            fold = try RecordingFold(path: recording)
        } catch {
            NotifyTopRunner.printError("notifytop baseline: \(error)")
            throw ExitCode(NotifyTopRunner.unreadableInput)
        }
        if let skipped = fold.skippedLines {
            NotifyTopRunner.printError("notifytop baseline: \(fold.path): \(skipped)")
        }
        print(LeakBaseline(model: fold.model).json, terminator: "")
    }
}
