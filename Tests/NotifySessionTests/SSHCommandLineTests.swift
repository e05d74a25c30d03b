import Foundation
import ArgumentParser
import NotifySession
import NotifySystem
import NotifyTestSupport
import Testing

/// `--ssh [user@]host[:port]` as a typed value, the ssh command line built from it, the relay's
/// listing format and the one-line messages made from how ssh failed.
@Suite(.timeLimit(.minutes(10)))
struct SSHCommandLineTests {
    struct Options: ParsableArguments {
        @Option var ssh: SSHDestination?
    }

    @Test func destinationsParseUserHostAndPort() {
        #expect(SSHDestination(text: "staging") == SSHDestination(host: "staging"))
        #expect(SSHDestination(text: "deploy@staging") == SSHDestination(user: "deploy", host: "staging"))
        #expect(SSHDestination(text: "staging:2222") == SSHDestination(host: "staging", port: 2222))
        #expect(
            SSHDestination(text: "deploy@10.0.0.7:22") == SSHDestination(user: "deploy", host: "10.0.0.7", port: 22))
        #expect(SSHDestination(text: "[::1]:2222") == SSHDestination(host: "::1", port: 2222))
        #expect(SSHDestination(text: "[fe80::1]") == SSHDestination(host: "fe80::1"))
        #expect(SSHDestination(text: "::1") == SSHDestination(host: "::1"), "a bare IPv6 address has no port")
        #expect(SSHDestination(text: "a@b@host") == SSHDestination(user: "a@b", host: "host"))
    }

    @Test func destinationsThatSshCouldMisreadAreRefused() {
        for bad in [
            "", "@host", "user@", "host:", "host:0", "host:65536", "host:22x", "host:-1", "-oProxyCommand=x",
            "user@-host", "-l@host", "ho st", "host\n", "[::1", "[::1]x", "[::1]:", "[]", "host:+22",
        ] {
            #expect(SSHDestination(text: bad) == nil, "\(bad) is refused")
        }
    }

    @Test func destinationsPrintAsTyped() {
        for text in ["staging", "deploy@staging:2222", "[::1]:2222", "::1"] {
            #expect(SSHDestination(text: text)?.text == text)
        }
    }

    @Test func theOptionIsValidatedWhenParsed() throws {
        #expect(
            try Options.parse(["--ssh", "deploy@staging:2222"]).ssh
                == SSHDestination(
                    user: "deploy", host: "staging", port: 2222))
        do {
            _ = try Options.parse(["--ssh", "staging:99999"])
            Issue.record("a port above 65535 parses")
        } catch {
            #expect(Options.exitCode(for: error) == .validationFailure)
            #expect(Options.message(for: error).contains("staging:99999"))
        }
    }

    @Test func theSshCommandLineNeverPromptsAndEndsOptionsBeforeTheHost() throws {
        var configuration = SSHHost.Configuration(destination: try #require(SSHDestination(text: "deploy@stage:2222")))
        configuration.options = ["IdentityFile=/keys/id"]
        configuration.configFile = "/tmp/ssh config"
        configuration.remoteNotifytop = "~/bin/notifytop"
        let words = SSHHost(configuration).command(["--relay", "--pid", "42"])
        #expect(words.first == "ssh")
        #expect(Array(words[1...4]) == ["-F", "/tmp/ssh config", "-o", "IdentityFile=/keys/id"], "the user's first")
        #expect(words.contains("BatchMode=yes"))
        #expect(words.contains("ConnectTimeout=10"))
        #expect(words.contains("ServerAliveInterval=5"))
        for flag in ["-T", "-x", "-a"] { #expect(words.contains(flag)) }
        let port = try #require(words.firstIndex(of: "-p"))
        #expect(words[port + 1] == "2222")
        let user = try #require(words.firstIndex(of: "-l"))
        #expect(words[user + 1] == "deploy")
        #expect(Array(words.suffix(3)) == ["--", "stage", "~/bin/notifytop --relay --pid 42"])
    }

    @Test func aControlPathSharesOneConnection() throws {
        var configuration = SSHHost.Configuration(destination: try #require(SSHDestination(text: "stage")))
        configuration.controlPath = "/run/user/1/notifytop/ssh-42-a1"
        let words = SSHHost(configuration).command(["--relay", "--list"])
        for option in ["ControlMaster=auto", "ControlPath=/run/user/1/notifytop/ssh-42-a1", "ControlPersist=30"] {
            let index = try #require(words.firstIndex(of: option), "\(option)")
            #expect(words[index - 1] == "-o")
        }
        let directory = temporaryPath("control")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try #require(SSHHost.privateControlPath(in: SocketDirectory(path: directory)))
        #expect(path.hasPrefix(directory + "/ssh-\(getpid())-"), "this process's own, in the private directory")
        #expect(!path.hasSuffix(".sock"), "never listed as an inspectable process")
        #expect(SocketDirectory(path: directory).problem == nil)
        #expect(SSHHost.privateControlPath(in: SocketDirectory(path: "/proc/no/such/dir")) == nil)
    }

    @Test func withoutUserOrPortSshChoosesThem() throws {
        let words = SSHHost(.init(destination: try #require(SSHDestination(text: "stage")))).command([
            "--relay", "--list",
        ])
        #expect(!words.contains("-p") && !words.contains("-l") && !words.contains("-F"))
        #expect(words.last == "notifytop --relay --list")
    }

    @Test func remoteWordsAreQuotedForTheRemoteShell() {
        #expect(SSHHost.shellCommand(["notifytop", "--pid", "7"]) == "notifytop --pid 7")
        #expect(SSHHost.shellCommand(["/opt/my tools/notifytop"]) == "'/opt/my tools/notifytop'")
        #expect(SSHHost.shellCommand(["a'b;rm -rf ~"]) == "'a'\\''b;rm -rf ~'")
        #expect(SSHHost.shellCommand(["$(reboot)", ""]) == "'$(reboot)' ''")
    }

    @Test func aListingReadsBackAsItWasWritten() throws {
        let processes = [
            InspectableProcess(pid: 42, socketPath: "/run/user/1/notifytop/42.sock", name: "shop", uptimeSeconds: 12.5),
            InspectableProcess(
                pid: 7, socketPath: "/run/user/1/notifytop/7.sock", name: "odd\tname", uptimeSeconds: nil),
        ]
        let text = Relay.listing(directory: "/run/user/1/notifytop", processes: processes)
        let listing = try #require(try Relay.parseListing(text, host: "stage"))
        #expect(listing.directory == "/run/user/1/notifytop on stage")
        #expect(listing.processes.map(\.pid) == [42, 7])
        #expect(listing.processes[0] == processes[0])
        #expect(listing.processes[1].name == "odd?name", "a tab cannot split the fields")
        #expect(listing.processes[1].uptimeSeconds == nil)
        #expect(try Relay.parseListing("notifytop-relay\t1\t/d\n", host: "h")?.processes == [])
        #expect(try Relay.parseListing("Welcome to staging!\n" + text, host: "h")?.processes.count == 2)
        for bad in ["", "hello\n", "notifytop-relay\t2\t/d\n", "notifytop-relay\t1\t/d\n42\tx\n"] {
            #expect(try Relay.parseListing(bad, host: "h") == nil, "\(bad.debugDescription) is not a listing")
        }
    }

    @Test("an uptime a host lies about reads as unknown, whatever the number")
    func implausibleUptimesReadAsUnknown() throws {
        for uptime in ["NaN", "nan", "inf", "-inf", "-5", "1.8e10", "1e300", "18446744073709551615", "0x10", ""] {
            let text = "notifytop-relay\t1\t/d\n42\t\(uptime)\tshop\t/d/42.sock\n"
            let listing = try #require(try Relay.parseListing(text, host: "h"), "\(uptime)")
            #expect(listing.processes.count == 1)
            #expect(listing.processes[0].uptimeSeconds == nil, "uptime \(uptime) is not an uptime")
        }
        let fine = try #require(try Relay.parseListing("notifytop-relay\t1\t/d\n42\t3600.5\tshop\t/s\n", host: "h"))
        #expect(fine.processes[0].uptimeSeconds == 3600.5)
    }

    @Test("a listing over its bounds is a one-line error naming the host")
    func listingBoundsAreOneLineErrors() throws {
        let head = "notifytop-relay\t1\t/d\n"
        let line = "42\t1\tshop\t/d/42.sock\n"
        let cases: [(String, String)] = [
            (head + String(repeating: line, count: Relay.maximumListedProcesses + 1), "processes"),
            (head + "42\t1\t" + String(repeating: "x", count: Relay.maximumListingLineBytes) + "\t/s\n", "line"),
            (head + String(repeating: "0", count: Relay.maximumListingBytes), "MiB"),
        ]
        for (text, word) in cases {
            #expect {
                _ = try Relay.parseListing(text, host: "stage")
            } throws: { error in
                let message = "\(error)"
                return message.hasPrefix("stage ") && message.contains(word) && !message.contains("\n")
            }
        }
        let most = try #require(
            try Relay.parseListing(head + String(repeating: line, count: Relay.maximumListedProcesses), host: "h"))
        #expect(most.processes.count == Relay.maximumListedProcesses)
    }

    @Test func chooseTakesThePidOrTheOnlyProcess() throws {
        let one = InspectableProcess(pid: 42, socketPath: "/d/42.sock", name: "shop", uptimeSeconds: 1)
        let two = InspectableProcess(pid: 43, socketPath: "/d/43.sock", name: "shop", uptimeSeconds: 1)
        #expect(try AttachTarget.choose(pid: nil, from: HostListing(directory: "/d", processes: [one])) == one)
        #expect(try AttachTarget.choose(pid: 43, from: HostListing(directory: "/d", processes: [one, two])) == two)
        #expect(throws: AttachTarget.Failure.self) {
            try AttachTarget.choose(pid: nil, from: HostListing(directory: "/d", processes: [one, two]))
        }
        #expect(throws: AttachTarget.Failure.self) {
            try AttachTarget.choose(pid: 44, from: HostListing(directory: "/d", processes: [one]))
        }
    }

    static func message(_ termination: ChildProcess.Termination?, _ standardError: String) -> String {
        SSHFailure.message(
            termination, standardError: standardError, answered: false, host: "stage", remoteNotifytop: "notifytop",
            timeoutSeconds: 20)
    }

    @Test func sshFailuresAreOneLineEach() {
        let cases: [(ChildProcess.Termination?, String, String)] = [
            (
                .exited(255), "ssh: connect to host 127.0.0.1 port 1: Connection refused\r\n",
                "cannot reach stage: connection refused"
            ),
            (
                .exited(255), "ssh: Could not resolve hostname nowhere: Name or service not known\n",
                "cannot reach stage: unknown host name"
            ),
            (
                .exited(255), "ssh: connect to host 10.9.9.9 port 22: Connection timed out\n",
                "cannot reach stage: the connection timed out"
            ),
            (
                .exited(255), "Warning: Permanently added 'x'.\r\nuser@stage: Permission denied (publickey).\r\n",
                "stage refused the login (permission denied)"
            ),
            (.exited(255), "Host key verification failed.\n", "stage's host key is unknown or has changed"),
            (
                .exited(255), "kex_exchange_identification: read: Connection reset by peer\n",
                "ssh stage failed: kex_exchange_identification: read: Connection reset by peer"
            ),
            (.exited(127), "bash: line 1: notifytop: command not found\n", "notifytop is not installed on stage"),
            (.exited(1), "notifytop: process 42 is not inspectable\n", "stage: process 42 is not inspectable"),
            (
                .exited(64), "Error: Unknown option '--relay'\nUsage: notifytop <options>\n",
                "the notifytop on stage does not know --relay"
            ),
            (nil, "", "stage did not answer within 20 s"),
        ]
        for (termination, standardError, expected) in cases {
            let line = Self.message(termination, standardError)
            #expect(line.hasPrefix(expected), "\(standardError.debugDescription) → \(line)")
            #expect(!line.contains("\n") && !line.contains("\r"))
        }
    }

    @Test func controlCharactersFromTheHostDoNotReachTheTerminal() {
        let line = Self.message(.exited(255), "ssh: \u{1B}]0;owned\u{07}weird failure\n")
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 })
    }
}
