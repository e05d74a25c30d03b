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
            With no options, attaches to the only inspectable process (or lists them).
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

    @Flag(name: .customLong("no-reattach"),
          help: "End when the target's stream ends, instead of waiting for it to restart and attaching again.")
    var noReattach = false

    @Flag(help: "List the inspectable processes and exit.")
    var list = false

    @Flag(help: "Start notify-demo (with any options notifytop does not know) and attach to it.")
    var demo = false

    @Option(help: ArgumentHelp("Save the raw trace to a file (replay it with --replay).", valueName: "file"))
    var record: String?

    @Option(help: ArgumentHelp("Replay a recorded trace instead of attaching.", valueName: "file"))
    var replay: String?

    @Option(help: "Replay speed (0.25 to 64; 0 = all at once; default 1, or 0 with --batch).")
    var speed: Double?

    @Option(help: ArgumentHelp("Replay from this time (1.5s, 250ms, 2m or seconds); earlier events are folded at once.",
                               valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("Replay up to this time, then stop (shows ENDED).", valueName: "time"))
    var to: String?

    @Flag(help: "Print plain-text frames instead of the interactive screen (like top -b).")
    var batch = false

    @Flag(help: "With --batch (implied): print one JSON object per frame, one per line.")
    var json = false

    @Option(help: ArgumentHelp("Start with this table filter (as typed after /).", valueName: "query"))
    var filter: String?

    @Option(help: ArgumentHelp("Sort the view by a column title, optionally :asc or :desc (posts, deliv:asc).",
                               valueName: "column"))
    var sort: String?

    @Option(name: [.customShort("n"), .long], help: "Frames to print in batch mode.")
    var iterations = 1

    @Option(help: ArgumentHelp("The view to show: names, observers, threads, leaks, events, log (or 1-6); in batch "
                               + "mode a comma-separated list (names,threads,leaks) prints each of them per frame.",
                               valueName: "view"))
    var view = "names"

    @Option(name: [.customShort("d"), .long], help: "Redraw delay, with a unit: 250ms, 1s (default 500ms).")
    var delay = "500ms"

    @Option(name: .customLong("fail-on"), help: "Exit 3 when open findings of this severity exist: info, warning, error.")
    var failOn: String?

    @Flag(name: [.customShort("C"), .customLong("no-color")], help: "No colours (as with NO_COLOR).")
    var noColor = false

    @Flag(help: "ASCII glyphs only.")
    var ascii = false

    @Flag(name: .customLong("no-mouse"), help: "Ignore the mouse (clicks, wheel), leaving text selection to the terminal.")
    var noMouse = false

    @Option(help: "Colours: default, light (dark text on light backgrounds) or mono. NO_COLOR forces mono.")
    var theme = "default"

    @Option(help: "Batch frame size, such as 120x40 (default: COLUMNS x LINES, else 120x40).")
    var size: String?

    @Flag(name: .customLong("help-keys"), help: "Print the key table and exit.")
    var helpKeys = false

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var demoArguments: [String] = []

    /// `names,threads,leaks`: the views in order, each once; nil when any is unknown or none is given.
    static func views(_ text: String) -> [ViewID]? {
        var views: [ViewID] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let view = ViewID(argument: part.filter { !$0.isWhitespace }) else { return nil }
            if !views.contains(view) { views.append(view) }
        }
        return views.isEmpty ? nil : views
    }

    func validate() throws {
        if !demo && !demoArguments.isEmpty {
            throw ValidationError("unknown arguments \(demoArguments.joined(separator: " ")) (only --demo passes options on)")
        }
        guard let views = Self.views(view) else { throw ValidationError("unknown view \"\(view)\"") }
        if views.count > 1 && !batch && !json {
            throw ValidationError("several views (\(view)) need --batch or --json; the dashboard shows one at a time")
        }
        if Self.milliseconds(delay) == nil { throw ValidationError("delay needs a unit, such as 250ms or 1s") }
        if let failOn, Self.severity(failOn) == nil { throw ValidationError("--fail-on takes info, warning or error") }
        if let size, Self.parseSize(size) == nil { throw ValidationError("size looks like 120x40") }
        if let sort {
            guard let (column, descending) = Self.parseSort(sort),
                  let view = Self.views(view)?.first,
                  ViewRows.sorting(view, byColumn: column, descending: descending) != nil else {
                let columns = Self.views(view)?.first.map { ViewRows.sortableColumns(of: $0) } ?? []
                throw ValidationError("cannot sort the \(view) view by \"\(sort)\""
                    + (columns.isEmpty ? " (it is a log, always in time order)" : "; columns: " + columns.joined(separator: ", ")))
            }
        }
        for (flag, value) in [("--from", from), ("--to", to)] {
            guard let value else { continue }
            if replay == nil { throw ValidationError("\(flag) bounds a replay; use it with --replay FILE") }
            if TimeOffset.nanoseconds(value) == nil {
                throw ValidationError("\(flag) takes a time such as 1.5s, 250ms, 2m or plain seconds, not \"\(value)\"")
            }
        }
        if let from = from.flatMap(TimeOffset.nanoseconds), let to = to.flatMap(TimeOffset.nanoseconds), from > to {
            throw ValidationError("--from \(self.from!) is after --to \(self.to!)")
        }
        if Theme(name: theme) == nil { throw ValidationError("--theme takes default, light or mono") }
        if replay != nil && (demo || pid != nil || socket != nil) {
            throw ValidationError("--replay reads a file; it cannot be combined with --demo, --pid or --socket")
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
        options.demo = demo
        options.noReattach = noReattach
        options.demoArguments = demoArguments
        options.record = record
        options.replay = replay
        options.speed = speed
        options.batch = batch
        options.from = from.flatMap(TimeOffset.nanoseconds) ?? 0
        options.to = to.flatMap(TimeOffset.nanoseconds)
        options.json = json
        options.filter = filter ?? ""
        if let sort, let (column, descending) = Self.parseSort(sort) {
            options.sortColumn = column
            options.sortDescending = descending
        }
        options.iterations = iterations
        let views = Self.views(view) ?? [.names]
        options.view = views[0]
        options.moreViews = Array(views.dropFirst())
        options.delayMilliseconds = Self.milliseconds(delay) ?? 500
        options.failOn = failOn.flatMap(Self.severity)
        options.monochrome = noColor
        options.ascii = ascii
        options.theme = Theme(name: theme) ?? .standard
        options.mouse = !noMouse
        options.size = size.flatMap(Self.parseSize)
        let status = NotifyTopRunner.run(options)
        if status != 0 { throw ExitCode(status) }
    }

    /// `250ms`, `1s`, `1.5s` → milliseconds; a bare number is refused (units required).
    static func milliseconds(_ text: String) -> Int? {
        if text.hasSuffix("ms"), let value = Double(text.dropLast(2)), value > 0 { return Int(value) }
        if text.hasSuffix("s"), let value = Double(text.dropLast()), value > 0 { return Int(value * 1000) }
        return nil
    }

    /// `posts` → (posts, nil); `posts:asc` → (posts, false); `posts:desc` → (posts, true).
    static func parseSort(_ text: String) -> (String, Bool?)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard let column = parts.first, !column.isEmpty, parts.count <= 2 else { return nil }
        guard parts.count == 2 else { return (column, nil) }
        switch parts[1].lowercased() {
        case "asc": return (column, false)
        case "desc": return (column, true)
        default: return nil
        }
    }

    static func severity(_ text: String) -> LeakSeverity? {
        LeakSeverity.allCases.first { $0.description == text.lowercased() }
    }

    static func parseSize(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return Size(width: width, height: height)
    }
}
