import ArgumentParser
import NotifyModel
import NotifySession
import NotifyTUI

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
            Exit status: 0 ok (also when the reader of batch output stops early, as head does), 1 cannot attach
            or a recording failed (disk full), 2 the --replay file is not a trace, 3 --fail-on findings exist, \
            128+N killed by signal N.
            """)

    /// `notifytop diff …` goes to ``DiffCommand``; anything else is the dashboard's command line.
    ///
    /// Dispatched by hand because the dashboard passes unknown options on to `--demo`, and
    /// ArgumentParser would hand `diff` to that pass-through instead of to a subcommand.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == DiffCommand.name {
            DiffCommand.main(Array(arguments.dropFirst()))
        } else {
            main(arguments)
        }
    }

    @Option(help: "Attach to this process id.")
    var pid: Int32?

    @Option(help: ArgumentHelp("Attach to this inspector socket.", valueName: "path"))
    var socket: String?

    @Flag(
        name: .customLong("no-reattach"),
        help: ArgumentHelp(
            "End when the target's stream ends, instead of waiting for it to restart and attaching again.",
            discussion: "A process that cut notifytop off for falling behind is still connected to again."))
    var noReattach = false

    @Flag(help: "List the inspectable processes and exit.")
    var list = false

    @Option(
        help: ArgumentHelp(
            "Inspect a process on another host through OpenSSH (your ssh configuration, keys and agent; "
                + "notifytop must be installed there).",
            valueName: "[user@]host[:port]"))
    var ssh: SSHDestination?

    @Option(
        name: .customLong("ssh-option"),
        help: ArgumentHelp(
            "With --ssh: pass -o OPTION to ssh (repeatable), as IdentityFile=~/.ssh/staging.", valueName: "option"))
    var sshOptions: [String] = []

    @Option(
        name: .customLong("ssh-config"),
        help: ArgumentHelp(
            "With --ssh: read this ssh configuration file instead of ~/.ssh/config (ssh -F).", valueName: "file"))
    var sshConfig: String?

    @Option(
        name: .customLong("remote-notifytop"),
        help: ArgumentHelp(
            "With --ssh: the notifytop command on the remote host (default: notifytop on its PATH).", valueName: "path")
    )
    var remoteNotifytop: String?

    @Flag(help: .hidden)
    var relay = false

    @Flag(help: "Start notify-demo (with any options notifytop does not know) and attach to it.")
    var demo = false

    @Option(help: ArgumentHelp("Save the raw trace to a file (replay it with --replay).", valueName: "file"))
    var record: String?

    @Option(help: ArgumentHelp("Replay a recorded trace instead of attaching.", valueName: "file"))
    var replay: String?

    @Option(help: "Replay speed (0.25 to 64; 0 = all at once; default 1, or 0 with --batch).")
    var speed: ReplaySpeed?

    @Option(
        help: ArgumentHelp(
            "Replay from this time (1.5s, 250ms, 2m or seconds); earlier events are folded at once.",
            valueName: "time"))
    var from: ReplayTime?

    @Option(help: ArgumentHelp("Replay up to this time, then stop (shows ENDED).", valueName: "time"))
    var to: ReplayTime?

    @Flag(help: "Print plain-text frames instead of the interactive screen (like top -b).")
    var batch = false

    @Flag(help: "With --batch (implied): print one JSON object per frame, one per line.")
    var json = false

    @Option(help: ArgumentHelp("Start with this table filter (as typed after /).", valueName: "query"))
    var filter: String?

    @Option(
        help: ArgumentHelp(
            "Sort the view by a column title, optionally :asc or :desc (posts, deliv:asc).",
            valueName: "column"))
    var sort: SortOption?

    @Option(name: [.customShort("n"), .long], help: "Frames to print in batch mode.")
    var iterations = 1

    @Option(
        help: ArgumentHelp(
            "The view to show: names, observers, threads, leaks, events, log (or 1-6); in batch "
                + "mode a comma-separated list (names,threads,leaks) prints each of them per frame.",
            valueName: "view"))
    var view = ViewList(.names)

    @Option(name: [.customShort("d"), .long], help: "Redraw delay, with a unit: 250ms, 1s.")
    var delay = RedrawDelay(milliseconds: 500)

    @Option(name: .customLong("fail-on"), help: "Exit 3 when open findings of this severity or worse exist.")
    var failOn: LeakSeverity?

    @Flag(name: [.customShort("C"), .customLong("no-color")], help: "No colours (as with NO_COLOR).")
    var noColor = false

    @Flag(help: "ASCII glyphs only.")
    var ascii = false

    @Flag(
        name: .customLong("no-mouse"), help: "Ignore the mouse (clicks, wheel), leaving text selection to the terminal."
    )
    var noMouse = false

    @Option(help: "Colours: default, light (dark text on light backgrounds) or mono. NO_COLOR forces mono.")
    var theme = Theme.standard

    @Option(help: "Batch frame size, such as 120x40 (default: COLUMNS x LINES, else 120x40).")
    var size: Size?

    @Flag(name: .customLong("help-keys"), help: "Print the key table and exit.")
    var helpKeys = false

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var demoArguments: [String] = []

    func validate() throws {
        if !demo && !demoArguments.isEmpty {
            throw ValidationError(
                "unknown arguments \(demoArguments.joined(separator: " ")) (only --demo passes options on)")
        }
        if iterations < 1 { throw ValidationError("-n takes the number of frames to print, at least 1") }
        if view.views.count > 1 && !batch && !json {
            throw ValidationError(
                "several views (\(view.defaultValueDescription)) need --batch or --json; "
                    + "the dashboard shows one at a time")
        }
        if let sort, ViewRows.sorting(view.first, byColumn: sort.column, descending: sort.descending) == nil {
            let columns = ViewRows.sortableColumns(of: view.first)
            throw ValidationError(
                "cannot sort the \(view.first.title.lowercased()) view by \"\(sort.defaultValueDescription)\""
                    + (columns.isEmpty
                        ? " (it is a log, always in time order)" : "; columns: " + columns.joined(separator: ", ")))
        }
        if replay == nil, let flag = from != nil ? "--from" : to != nil ? "--to" : nil {
            throw ValidationError("\(flag) bounds a replay; use it with --replay FILE")
        }
        if let from, let to, from > to {
            throw ValidationError("--from \(from.text) is after --to \(to.text)")
        }
        if replay != nil && (demo || pid != nil || socket != nil) {
            throw ValidationError("--replay reads a file; it cannot be combined with --demo, --pid or --socket")
        }
        if ssh != nil, let flag = demo ? "--demo" : replay != nil ? "--replay" : socket != nil ? "--socket" : nil {
            throw ValidationError(
                "--ssh attaches to a process on another host (choose one with --pid); it cannot be combined with \(flag)"
            )
        }
        if ssh == nil,
            let flag = !sshOptions.isEmpty
                ? "--ssh-option"
                : sshConfig != nil ? "--ssh-config" : remoteNotifytop != nil ? "--remote-notifytop" : nil
        {
            throw ValidationError("\(flag) is for --ssh HOST")
        }
        if relay && (ssh != nil || demo || replay != nil) {
            throw ValidationError("--relay serves a viewer's --ssh; it takes only --list, --pid or --socket")
        }
    }

    func run() throws {
        if helpKeys {
            print(Keymap.standard.helpLines().joined(separator: "\n"))
            return
        }
        var options = NotifyTopOptions()
        options.pid = pid
        options.socket = socket
        options.list = list
        options.ssh = ssh
        options.sshOptions = sshOptions
        options.sshConfig = sshConfig
        options.remoteNotifytop = remoteNotifytop ?? "notifytop"
        options.relay = relay
        options.demo = demo
        options.noReattach = noReattach
        options.demoArguments = demoArguments
        options.record = record
        options.replay = replay
        options.speed = speed?.factor
        options.batch = batch
        options.from = from?.nanoseconds ?? 0
        options.to = to?.nanoseconds
        options.json = json
        options.filter = filter ?? ""
        options.sortColumn = sort?.column
        options.sortDescending = sort?.descending
        options.iterations = iterations
        options.view = view.first
        options.moreViews = view.rest
        options.delayMilliseconds = delay.milliseconds
        options.failOn = failOn
        options.monochrome = noColor
        options.ascii = ascii
        options.theme = theme
        options.mouse = !noMouse
        options.size = size
        let status = NotifyTopRunner.run(options)
        if status != 0 { throw ExitCode(status) }
    }
}
