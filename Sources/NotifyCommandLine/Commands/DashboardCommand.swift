package import ArgumentParser
import NotifyTUI

/// `notifytop [dashboard]`: the live dashboard, a replay, batch frames or a bounded capture.
/// Parsing only; the work happens in ``NotifyTopRunner``.
package struct DashboardCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "The dashboard of a process, a recording or every inspectable process.",
        discussion: """
            notifytop OPTIONS is notifytop dashboard OPTIONS. With no target (--pid, --socket, --demo, --replay) \
            it starts on the process overview of this host (or of the --ssh host, or of every process that maps \
            Foundation with --foundation); Enter attaches.

            Exit status: 0 ok (also when the reader of batch output stops early, as head does), 1 cannot attach \
            or a recording failed (disk full), 2 the --replay file is not a trace (or breaks off at a line of \
            another format), 3 --fail-on findings exist, 64 a usage error, 128+N killed by signal N.
            """)

    @OptionGroup package var options: NotifyTopOptions

    @Flag(name: .customLong("help-keys"), help: "Print the key table and exit.")
    package var helpKeys = false

    /// Arguments for `notify-demo`: whatever notifytop does not know, with `--demo`.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    package var demoArguments: [String] = []

    package init() {}

    package func validate() throws {
        guard !options.demo, !demoArguments.isEmpty else { return }
        // Without --demo nothing is passed on: the options alone say what is wrong (a typo gets the
        // nearest option), else the leftovers are named.
        do {
            _ = try NotifyTopOptions.parse(demoArguments)
        } catch {
            throw ValidationError(NotifyTopOptions.message(for: error))
        }
        throw ValidationError(
            "unknown arguments \(demoArguments.joined(separator: " ")) (only --demo passes options on)")
    }

    package func run() throws {
        if helpKeys {
            print(Keymap.standard.helpLines().joined(separator: "\n"))
            return
        }
        let status = NotifyTopRunner.run(options, demoArguments: demoArguments)
        if status != 0 { throw ExitCode(status) }
    }
}
