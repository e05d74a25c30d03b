import ArgumentParser
import NotifyCommandLine
import NotifyModel
import NotifySession
import Testing

/// notifytop's command line as ArgumentParser declares it: each subcommand parses, the dashboard
/// is the default, typos get the library's suggestion and usage errors exit 64.
struct CommandLineTests {
    /// The command `arguments` select, parsed and validated as `notifytop` would.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        try NotifyTopCommand.parseAsRoot(arguments)
    }

    /// The one-line message of the usage error `arguments` make (which must exit 64).
    static func usageError(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        do {
            _ = try parse(arguments)
            Issue.record("\(arguments) parsed", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(
                NotifyTopCommand.exitCode(for: error).rawValue == 64, "\(arguments) exits 64",
                sourceLocation: sourceLocation)
            return NotifyTopCommand.message(for: error)
        }
    }

    @Test("each subcommand parses by name, and the dashboard is the default")
    func subcommandsParse() throws {
        let diff = try #require(
            try Self.parse(["diff", "a.ndjson", "b.ndjson", "--fail-on", "warning"]) as? DiffCommand)
        #expect(diff.a == "a.ndjson" && diff.b == "b.ndjson" && diff.failOn == .warning)
        let explain = try #require(try Self.parse(["explain", "r.ndjson", "--name", "Cart"]) as? ExplainCommand)
        #expect(explain.file == "r.ndjson" && explain.name == "Cart")
        let export = try #require(try Self.parse(["export", "r.ndjson", "--perfetto", "out.json"]) as? ExportCommand)
        #expect(export.recording == "r.ndjson" && export.perfetto == "out.json")
        let baseline = try #require(try Self.parse(["baseline", "r.ndjson"]) as? BaselineCommand)
        #expect(baseline.recording == "r.ndjson")
        #expect(try Self.parse([]) is DashboardCommand)
        let dashboard = try #require(try Self.parse(["--pid", "42", "-d", "2"]) as? DashboardCommand)
        #expect(dashboard.options.pid == 42 && dashboard.options.delay.milliseconds == 2000)
        let named = try #require(try Self.parse(["dashboard", "--replay", "r.ndjson", "--batch"]) as? DashboardCommand)
        #expect(named.options.replay == "r.ndjson" && named.options.batch)
        // A file named like a subcommand is still the option's value.
        let file = try #require(try Self.parse(["--replay", "diff", "--batch"]) as? DashboardCommand)
        #expect(file.options.replay == "diff")
    }

    @Test("--demo passes on what notifytop does not know, and keeps what it knows")
    func demoPassesUnknownOptionsOn() throws {
        let demo = try #require(
            try Self.parse(["--demo", "--scenario", "stress", "--batch", "--duration", "2"]) as? DashboardCommand)
        #expect(demo.options.demo && demo.options.batch)
        #expect(demo.demoArguments == ["--scenario", "stress", "--duration", "2"])
    }

    @Test("explain and the dashboard share one declaration of the targets")
    func explainSharesTheTargets() throws {
        let live = try #require(
            try Self.parse(["explain", "--ssh", "deploy@stage", "--pid", "7", "--name", "N", "--for", "500ms"])
                as? ExplainCommand)
        #expect(live.target.pid == 7 && live.target.ssh == SSHDestination(user: "deploy", host: "stage"))
        #expect(live.duration?.nanoseconds == 500_000_000)
        let socket = try #require(try Self.parse(["explain", "--socket", "/s.sock", "--post", "3"]) as? ExplainCommand)
        #expect(socket.target.socket == "/s.sock")
        // The targets' own rules hold for both commands, with the same words.
        for command in [[], ["explain", "--name", "N"]] {
            #expect(
                Self.usageError(command + ["--socket", "/s", "--ssh", "h"])
                    == "--ssh attaches to a process on another host (choose one with --pid); it cannot be combined with --socket"
            )
            #expect(Self.usageError(command + ["--pid", "0"]) == "--pid takes a process id, at least 1")
            #expect(Self.usageError(command + ["--pid", "1", "--ssh-config", "c"]) == "--ssh-config is for --ssh HOST")
        }
        #expect(Self.usageError(["explain", "r.ndjson", "--ssh", "h", "--name", "N"])?.contains("--ssh") == true)
    }

    @Test("a typo gets ArgumentParser's suggestion, in the dashboard and in subcommands")
    func typosGetSuggestions() {
        #expect(Self.usageError(["--pdi", "1"]) == "Unknown option '--pdi'. Did you mean '--pid'?")
        #expect(Self.usageError(["--batch", "--replya", "r"]) == "Unknown option '--replya'. Did you mean '--replay'?")
        #expect(
            Self.usageError(["explain", "r", "--name", "N", "--objetc", "3"])
                == "Unknown option '--objetc'. Did you mean '--object'?")
        // ArgumentParser checks a command's own rules before its leftovers: a typo in the one option
        // a rule needs gets that rule, which names it.
        #expect(
            Self.usageError(["explain", "r", "--nmae", "N"]) == "give --name NAME, --registration ID or --post SEQ")
        #expect(
            Self.usageError(["diff", "a", "b", "--fail-of", "error"])
                == "Unknown option '--fail-of'. Did you mean '--fail-on'?")
        #expect(Self.usageError(["stray"])?.contains("'stray'") == true)
    }

    @Test("usage errors exit 64 with one line")
    func usageErrorsExit64() {
        for arguments in [
            ["explain"], ["explain", "r", "--name", "N", "--for", "2s"], ["explain", "r"], ["diff", "a"],
            ["export", "r"], ["baseline"], ["-n", "0"], ["--view", "names,leaks"], ["-d", "0"],
            ["--from", "2"], ["--replay", "r", "--from", "3", "--to", "2"], ["--demo", "--replay", "r"],
        ] {
            let message = Self.usageError(arguments)
            #expect(message?.contains("\n") == false, "\(arguments): \(message ?? "")")
        }
    }

    @Test("--filter with a field the first view lacks is a usage error naming the fields there")
    func filterFieldsAreChecked() throws {
        #expect(
            Self.usageError(["--replay", "r", "--filter", "bogus>1"])
                == "--filter \"bogus>1\" (names view): unknown field bogus (fields here: name obs posts deliv avg p99 max thr last since)"
        )
        let threads = Self.usageError(["--replay", "r", "--view", "leaks", "--filter", "posts>1"])
        #expect(threads?.hasPrefix("--filter \"posts>1\" (leaks view): unknown field posts (fields here: ") == true)
        #expect(Self.usageError(["--filter", "~("])?.hasPrefix("--filter \"~(\" (names view): bad regular") == true)
        // Plain words, regular expressions and the view's own fields still parse.
        for filter in ["cart", "~^user", "posts>100", "!block name~^cart"] {
            #expect(try Self.parse(["--replay", "r", "--filter", filter]) is DashboardCommand, "\(filter)")
        }
        #expect(try Self.parse(["--view", "threads", "--filter", "thread=main"]) is DashboardCommand)
    }

    @Test("help lists every subcommand, and each has its own")
    func helpListsSubcommands() {
        let help = NotifyTopCommand.helpMessage(columns: 100)
        for name in ["dashboard", "diff", "explain", "export", "baseline"] {
            #expect(help.contains("\n  \(name)"), "\(name)")
        }
        for (command, usage) in [
            (DiffCommand.self as any ParsableCommand.Type, "USAGE: notifytop diff <a> <b>"),
            (ExplainCommand.self, "USAGE: notifytop explain"), (ExportCommand.self, "USAGE: notifytop export"),
            (BaselineCommand.self, "USAGE: notifytop baseline <recording>"),
            (DashboardCommand.self, "USAGE: notifytop dashboard"),
        ] {
            #expect(NotifyTopCommand.helpMessage(for: command, columns: 100).contains(usage), "\(command)")
        }
        let dashboard = NotifyTopCommand.helpMessage(for: DashboardCommand.self, columns: 100)
        for valueName in ["--fail-on <severity>", "-d, --delay <seconds>", "--pid <pid>", "--baseline <file>"] {
            #expect(dashboard.contains(valueName), "\(valueName)")
        }
    }
}
