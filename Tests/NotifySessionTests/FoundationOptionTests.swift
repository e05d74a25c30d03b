import ArgumentParser
import Foundation
import NotifyCommandLine
import NotifySession
import Testing

/// `--foundation`: a process of this host only, by --pid or from the overview of Foundation
/// processes, and a process it cannot probe is one line naming why.
@Suite(.timeLimit(.minutes(10)))
struct FoundationOptionTests {
    @Test("--foundation cannot be combined with another kind of target")
    func otherTargetsAreRefused() {
        for other in [["--demo"], ["--replay", "x.jsonl"], ["--socket", "/s"], ["--ssh", "host"], ["--list"]] {
            #expect(throws: (any Error).self, "\(other)") {
                try NotifyTopOptions.parse(["--foundation", "--pid", "1"] + other)
            }
        }
    }

    @Test("--foundation alone starts on the overview of Foundation processes; with --pid it attaches")
    func overviewWithoutPid() throws {
        #expect(try NotifyTopOptions.parse(["--foundation"]).startsOnOverview)
        #expect(try NotifyTopOptions.parse(["--foundation", "--pid", "7"]).startsOnOverview == false)
        #expect(try NotifyTopOptions.parse(["--foundation", "--record", "r.jsonl"]).startsOnOverview == false)
        #expect(try NotifyTopOptions.parse(["--foundation", "--pid", "7"]).foundation)
        #expect(try NotifyTopOptions.parse([]).startsOnOverview)
    }

    @Test("a process that cannot be probed is one line and exit 1")
    func unprobeableProcessIsOneLine() throws {
        // This test process maps Foundation, but a pid that names no process is refused first.
        let options = try NotifyTopOptions.parse(["--foundation", "--pid", String(Int32.max)])
        var errors: [String] = []
        #expect(NotifyTopRunner.run(options) { errors.append($0) } == 1)
        #expect(errors == ["notifytop: no process \(Int32.max)"])
    }
}
