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
            Exit status: 0 ok, 1 cannot attach or read, 3 --fail-on findings exist, 128+N killed by signal N.
            """)

    @Option(help: "Attach to this process id.")
    var pid: Int32?

    @Option(help: ArgumentHelp("Attach to this inspector socket.", valueName: "path"))
    var socket: String?

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

    @Flag(help: "Print plain-text frames instead of the interactive screen (like top -b).")
    var batch = false

    @Option(name: [.customShort("n"), .long], help: "Frames to print in batch mode.")
    var iterations = 1

    @Option(help: "The view to show: names, observers, threads, leaks, events, log (or 1-6).")
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

    func validate() throws {
        if !demo && !demoArguments.isEmpty {
            throw ValidationError("unknown arguments \(demoArguments.joined(separator: " ")) (only --demo passes options on)")
        }
        if ViewID(argument: view) == nil { throw ValidationError("unknown view \"\(view)\"") }
        if Self.milliseconds(delay) == nil { throw ValidationError("delay needs a unit, such as 250ms or 1s") }
        if let failOn, Self.severity(failOn) == nil { throw ValidationError("--fail-on takes info, warning or error") }
        if let size, Self.parseSize(size) == nil { throw ValidationError("size looks like 120x40") }
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
        options.demoArguments = demoArguments
        options.record = record
        options.replay = replay
        options.speed = speed
        options.batch = batch
        options.iterations = iterations
        options.view = ViewID(argument: view) ?? .names
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

    static func severity(_ text: String) -> LeakSeverity? {
        LeakSeverity.allCases.first { $0.description == text.lowercased() }
    }

    static func parseSize(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return Size(width: width, height: height)
    }
}
