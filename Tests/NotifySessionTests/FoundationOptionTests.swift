import ArgumentParser
import Foundation
import NotifySession
import Testing

/// `--foundation`: it goes with --pid on this host only, it attaches rather than starting on the
/// overview, and a process it cannot probe is one line naming why.
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

    @Test("--foundation attaches: it never starts on the overview")
    func attachesRatherThanListing() throws {
        #expect(try NotifyTopOptions.parse(["--foundation"]).startsOnOverview == false)
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
