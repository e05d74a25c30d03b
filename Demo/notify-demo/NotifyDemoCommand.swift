import ArgumentParser
import Foundation
import NotifyDemo

/// `notify-demo`: an app-shaped NotifyKit workload with switchable observer bugs, for notifytop
/// to attach to. Parsing only; the workload lives in the NotifyDemo library.
@main
struct NotifyDemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify-demo",
        abstract: "Run an app-shaped NotifyKit workload with planted observer bugs, inspectable by notifytop.",
        discussion: """
            Prints its pid and inspector socket at start. At exit (and on SIGUSR1) it prints its own \
            counts, the ground truth notifytop is checked against, or writes them as JSON with --truth. \
            Ctrl-C and SIGTERM exit cleanly and remove the socket.
            """)

    @Option(help: "Workload shape: \(DemoScenario.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scenario: DemoScenario = .steady

    @Flag(help: "Describe the scenarios and the bugs, then exit.")
    var listScenarios = false

    @Option(help: "Target posts per second over all threads (default: the scenario's; stress is unlimited).")
    var rate: Double?

    @Option(
        help: ArgumentHelp(
            "How long to run: 30s, 2m, 500ms or plain seconds (default: until Ctrl-C).",
            valueName: "time"))
    var duration: DemoDuration?

    @Option(help: "Seed for every choice: the same seed gives the same registrations and posts per thread.")
    var seed: UInt64 = 1

    @Option(help: "Worker threads besides the main thread (at least 1).")
    var threads: Int = 2

    @Flag(help: "Plant no bugs.")
    var noBugs = false

    @Option(
        help: ArgumentHelp("Plant exactly these bugs, comma-separated (see --list-scenarios).", valueName: "bugs"),
        transform: { try DemoConfiguration.parseBugs($0) })
    var bugs: [DemoBug]?

    @Flag(help: "Also plant the silent bugs once at launch: observers that miss a post, for notifytop explain.")
    var silentBugs = false

    @Option(
        help: ArgumentHelp(
            "Write the ground truth as JSON to this file instead of printing it.",
            valueName: "file"))
    var truth: String?

    @Flag(help: "Do not start the trace-stream endpoint.")
    var noInspector = false

    @Option(
        help: ArgumentHelp(
            "Wait up to this many seconds for a viewer before starting, so it sees the whole run.",
            valueName: "seconds"))
    var waitForViewer: Double?

    func validate() throws {
        if noBugs && bugs != nil { throw ValidationError("--no-bugs and --bugs exclude each other") }
        if let rate, !(rate > 0) { throw ValidationError("--rate must be positive") }
        if threads < 1 { throw ValidationError("--threads must be at least 1") }
        if waitForViewer != nil && noInspector { throw ValidationError("--wait-for-viewer needs the inspector") }
    }

    func run() throws {
        if listScenarios {
            print(DemoCatalog.text)
            return
        }
        let configuration = DemoConfiguration(
            scenario: scenario, rate: rate, duration: duration?.seconds, seed: seed, threads: threads,
            bugs: noBugs ? [] : bugs, silentBugs: silentBugs)
        let options = LiveDemo.Options(inspect: !noInspector, truthPath: truth, waitForViewer: waitForViewer)
        LiveDemo(configuration: configuration, options: options).run()
    }
}

extension DemoScenario: ExpressibleByArgument {}

extension DemoDuration: ExpressibleByArgument {
    public var defaultValueDescription: String { "\(seconds)s" }
}
