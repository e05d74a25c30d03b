import ArgumentParser
import NotifySession
import NotifyTUI
import NotifyWire

/// `notifytop`: a top-like dashboard of a process's notification center. Parsing only; the work
/// happens in NotifySession's ``NotifyTopRunner``.
@main
struct NotifyTopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifytop",
        abstract: "Watch who observes what, on which threads deliveries run, and which observers leak.",
        discussion: """
            With no target (--pid, --socket, --demo, --replay), starts on the process overview: every inspectable
            process of this user (none yet, one or several), live; Enter attaches. Make an app inspectable with
            NOTIFYTOP=1 (its socket appears in $XDG_RUNTIME_DIR/notifytop).
            Try it: notifytop --demo
            Compare two recordings: notifytop diff A.ndjson B.ndjson (see notifytop diff --help).
            A recording as a Perfetto timeline: notifytop export REC --perfetto OUT.json.
            Known findings for --baseline: notifytop baseline REC.ndjson > known.json.
            Why an observer did not run: notifytop explain REC.ndjson --name NAME (see notifytop explain --help).
            Exit status: 0 ok (also when the reader of batch output stops early, as head does), 1 cannot attach
            or a recording failed (disk full), 2 the --replay file is not a trace (or breaks off at a line of another format), 3 --fail-on findings exist, \
            128+N killed by signal N.
            """,
        version: PackageVersion.current)

    /// `notifytop diff …` goes to ``DiffCommand``; anything else is the dashboard's command line.
    ///
    /// Dispatched by hand because the dashboard passes unknown options on to `--demo`, and
    /// ArgumentParser would hand `diff` to that pass-through instead of to a subcommand.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == DiffCommand.name {
            DiffCommand.main(Array(arguments.dropFirst()))
        } else if arguments.first == ExportCommand.name {
            ExportCommand.main(Array(arguments.dropFirst()))
        } else if arguments.first == BaselineCommand.name {
            BaselineCommand.main(Array(arguments.dropFirst()))
        } else if arguments.first == ExplainCommand.name {
            ExplainCommand.main(Array(arguments.dropFirst()))
        } else {
            main(arguments)
        }
    }

    @OptionGroup var options: NotifyTopOptions

    @Flag(name: .customLong("help-keys"), help: "Print the key table and exit.")
    var helpKeys = false

    func run() throws {
        if helpKeys {
            print(Keymap.standard.helpLines().joined(separator: "\n"))
            return
        }
        let status = NotifyTopRunner.run(options)
        if status != 0 { throw ExitCode(status) }
    }
}
