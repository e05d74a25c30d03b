package import ArgumentParser
import NotifyWire

/// `notifytop`: the root command. With no subcommand it runs ``DashboardCommand``, so
/// `notifytop --pid 42` is `notifytop dashboard --pid 42`; help, `help SUB`, suggestions,
/// completion scripts and man pages come from ArgumentParser.
package struct NotifyTopCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "notifytop",
        abstract: "Watch who observes what, on which threads deliveries run, and which observers leak.",
        discussion: """
            With no subcommand notifytop runs the dashboard (see notifytop help dashboard for its options). \
            With no target (--pid, --socket, --demo, --replay) it starts on the process overview: every \
            inspectable process of this user, live; Enter attaches. Make an app inspectable with NOTIFYTOP=1 (its \
            socket appears in $XDG_RUNTIME_DIR/notifytop).

            Try it: notifytop --demo

            Exit status: 0 ok (also when the reader of batch output stops early, as head does), 1 cannot attach \
            or a recording failed (disk full), 2 a file is not a trace (or breaks off at a line of another \
            format), 3 --fail-on findings exist, 64 a usage error, 128+N killed by signal N. Each subcommand's \
            help lists its own.
            """,
        version: PackageVersion.current,
        subcommands: [
            DashboardCommand.self, DiffCommand.self, ExplainCommand.self, ExportCommand.self, BaselineCommand.self,
        ],
        defaultSubcommand: DashboardCommand.self)

    package init() {}
}
