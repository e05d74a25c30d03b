import ArgumentParser
import NotifyModel
import NotifySession

/// `notifytop explain FILE --name NAME`: why each observer did or did not run for a name's posts.
/// Parsing only; the explanation is NotifyModel's, the report NotifySession's.
struct ExplainCommand: ParsableCommand {
    /// The word after `notifytop` that selects this command.
    static let name = "explain"

    static let configuration = CommandConfiguration(
        commandName: "notifytop explain",
        abstract: "Explain why each observer did or did not run for a name's posts in a recording.",
        discussion: """
            The file is folded through the same model as --replay. For each kept post of NAME (the last 32), \
            every registration that could have received it is listed: NAME's own, every-name ones, and those \
            of near names (a typo or a difference in case), live or ended within the model's retirement window \
            (60 s), each with a reason: delivered, object-differs, name-differs, registered-after, \
            removed-before, owner-dead, object-dead, token-dropped, still-queued, buffer-dropped or unknown. \
            A name nobody posted explains its near names' posts.

            Exit status: 0 explained, 2 the file cannot be read or is not a trace, or the registration is \
            not tracked.
            """)

    @Argument(help: ArgumentHelp("The recording.", valueName: "FILE.ndjson"))
    var file: String

    @Option(help: "The notification name to explain.")
    var name: String?

    @Option(help: "Only posts of this object id (the trace's obj id).")
    var object: UInt64?

    @Option(help: "Only this registration's verdicts; without --name, every kept post of its name.")
    var registration: UInt64?

    @Option(help: "Only the post with this sequence number.")
    var post: UInt64?

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        if name == nil && registration == nil { throw ValidationError("give --name NAME or --registration ID") }
    }

    func run() throws {
        let fold: RecordingFold
        do { fold = try RecordingFold(path: file) } catch {
            NotifyTopRunner.printError("notifytop explain: \(error)")
            throw ExitCode(DiffCommand.unreadable)
        }
        if let skipped = fold.skippedLines { NotifyTopRunner.printError("notifytop explain: \(file): \(skipped)") }
        var report: ExplanationReport
        if let name {
            report = ExplanationReport(
                fold.model.explain(name: name, object: object, registration: registration, post: post))
        } else if let registration, let explanation = fold.model.explain(registration: registration) {
            report = ExplanationReport(explanation)
        } else {
            NotifyTopRunner.printError("notifytop explain: registration \(registration ?? 0) is not tracked")
            throw ExitCode(DiffCommand.unreadable)
        }
        report.keep(object: object, post: post)
        print(json ? report.json : report.text)
    }
}
