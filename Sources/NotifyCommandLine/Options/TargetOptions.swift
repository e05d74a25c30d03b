package import ArgumentParser
package import NotifyFoundationProbe
package import NotifySession

/// What notifytop attaches to: a process by id or socket, Foundation's own center, another host.
/// Declared once and shared by every command that attaches (the dashboard, `explain`), validated
/// here once; which other options go with them is each command's own check.
package struct TargetOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Attach to this process id.", valueName: "pid"))
    package var pid: Int32?

    @Option(help: ArgumentHelp("Attach to this inspector socket.", valueName: "path"))
    package var socket: String?

    @Flag(
        help: ArgumentHelp(
            "Watch an unmodified process's Foundation NotificationCenter through eBPF probes (bpftrace; root): "
                + "the one --pid names, or choose in the overview of every process that maps Foundation. "
                + "See docs/foundation.md."))
    package var foundation = false

    @Option(
        help: ArgumentHelp(
            "With --foundation: count posts and deliveries in the kernel (counting: the default, the app pays "
                + "the probes' traps, not a line each) or print every event (events: the default with --record and for explain; "
                + "durations, cascades, the Events view). The dashboard switches with P.",
            valueName: "counting|events"))
    package var probes: ProbeModeChoice?

    @Option(
        help: ArgumentHelp(
            "Inspect a process on another host through OpenSSH (your ssh configuration, keys and agent; "
                + "notifytop must be installed there).",
            valueName: "[user@]host[:port]"))
    package var ssh: SSHDestination?

    @Option(
        name: .customLong("ssh-option"),
        help: ArgumentHelp(
            "With --ssh: pass -o OPTION to ssh (repeatable), as IdentityFile=~/.ssh/staging.", valueName: "option"))
    package var sshOptions: [String] = []

    @Option(
        name: .customLong("ssh-config"),
        help: ArgumentHelp(
            "With --ssh: read this ssh configuration file instead of ~/.ssh/config (ssh -F).", valueName: "file"))
    package var sshConfig: String?

    @Option(
        name: .customLong("remote-notifytop"),
        help: ArgumentHelp(
            "With --ssh: the notifytop command on the remote host (default: notifytop on its PATH).",
            valueName: "path"))
    package var remoteNotifytop: String?

    package init() {}

    /// Whether a process is named (`--pid` or `--socket`).
    package var namesProcess: Bool { pid != nil || socket != nil }

    package func validate() throws {
        // 0 and negative numbers name process groups to kill(2), not a process.
        if let pid, pid < 1 { throw ValidationError("--pid takes a process id, at least 1") }
        if ssh != nil && socket != nil {
            throw ValidationError(
                "--ssh attaches to a process on another host (choose one with --pid); it cannot be combined with --socket"
            )
        }
        if ssh == nil,
            let flag = !sshOptions.isEmpty
                ? "--ssh-option"
                : sshConfig != nil ? "--ssh-config" : remoteNotifytop != nil ? "--remote-notifytop" : nil
        {
            throw ValidationError("\(flag) is for --ssh HOST")
        }
        if probes != nil && !foundation { throw ValidationError("--probes is for --foundation") }
        if foundation, let flag = socket != nil ? "--socket" : ssh != nil ? "--ssh" : nil {
            throw ValidationError(
                "--foundation probes a process on this host by --pid; it cannot be combined with \(flag)")
        }
    }
}

/// `--probes`: what `--foundation`'s probes send (NotifyFoundationProbe's `ProbeMode`).
package enum ProbeModeChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case counting, events

    package var mode: ProbeMode { self == .counting ? .counting : .events }
}
