import NotifyFoundationProbe
import NotifyWire
import Testing

/// `P`'s switch between the probe modes: the counting program's gate, the `S` line that gives the
/// cutover, which event lines past it are still shown, and what the hand-over reports.
@Suite struct ProbeSwitchTests {
    static let add = ["A 1 100 c0 0 0 f1 0 fa 12 12 S 61 e100000000000000", "a 1 110 1 0"]
    static let post = "P 1 200 c0 0 0 fa 20 20 S 61 e100000000000000"

    static func builder(after lines: [String], events: inout [TraceEvent]) -> ProbeEventBuilder {
        var builder = ProbeEventBuilder(pid: 1, lookups: testLookups)
        for line in lines { builder.add(ProbeLine(line[...])!, to: &events) }
        return builder
    }

    @Test func theGateAndThreadLinesParse() {
        #expect(CountingLine("S 47011913996010") == .switched(time: 47_011_913_996_010))
        // A thread that named itself, so that its name is read while it runs.
        #expect(CountingLine("T 4242") == .thread(4242))
        for line in ["S", "S x", "S -1", "S 1 2", "S 99999999999999999999", "T 0", "T -3", "T x", "T 99999999999"] {
            #expect(CountingLine(line[...]) == nil, "\(line)")
        }
    }

    @Test func aCountingProgramCountsOnlyWhileItsGateIsOpen() throws {
        let events = ProbeProgram(pid: 42, library: "/proc/42/map_files/7f00-7f80")
        let open = try CountingProgram(events: events, gate: .open, switcher: 7).text()
        let closed = try CountingProgram(events: events, gate: .closed, switcher: 7).text()
        #expect(open.contains(#"BEGIN { @on = 1; printf("READY\n"); }"#))
        #expect(closed.contains(#"BEGIN { printf("READY\n"); }"#) && !closed.contains("BEGIN { @on"))
        for text in [open, closed] {
            let gate = text.split(separator: "\n").filter { $0.contains("sys_enter_getpriority") }
            #expect(gate.count == 1)
            // Only notifytop's own call for this pid moves it, each way printing the moment.
            #expect(gate.first?.contains("/pid == 7 && args->who == 42/") == true)
            #expect(gate.first?.contains("args->which == \(CountingProgram.Switch.open.rawValue)) { @on = 1;") == true)
            #expect(gate.first?.contains("args->which == \(CountingProgram.Switch.close.rawValue)) { @on = 0;") == true)
            let post = text.split(separator: "\n").first { $0.hasPrefix("uprobe:") && $0.contains("@P[") }
            #expect(post?.contains("{ if (@on) { ") == true, "a post is counted only through the gate")
            #expect(text.contains("tracepoint:task:task_rename /pid == 42/ { printf(\"T %d\\n\", args->pid); }"))
            // A post made while it is closed is on the stack unkeyed: its deliveries are not counted.
            let delivery = text.split(separator: "\n").first { $0.contains("@D[") }
            #expect(delivery?.contains("if ($n.9 != 0)") == true)
        }
    }

    @Test func eventLinesPastTheCutoverContinueOnlyThePostPrintedBeforeIt() {
        var events: [TraceEvent] = []
        var builder = Self.builder(after: Self.add + [Self.post, "D 1 210 aaa f1 0"], events: &events)
        // Past the cutover (300): the post's next handler and its end are shown; a post made inside
        // that handler is the counting program's, with everything up to its end.
        let past = [
            ("D 1 310 aaa f1 0", true), ("P 1 320 c0 0 0 fa 20 20 S 61 e100000000000000", false),
            ("D 1 330 aaa f1 0", false), ("p 1 340", false), ("p 1 350", true),
            ("P 1 400 c0 0 0 fa 20 20 S 61 e100000000000000", false), ("D 1 410 aaa f1 0", false),
            ("A 1 420 c0 0 0 f2 0 fa 12 12 S 61 e100000000000000", false),
        ]
        for (line, shown) in past {
            let probe = ProbeLine(line[...])!
            #expect(builder.continuesPostUnderWay(probe) == shown, "\(line)")
            if shown { builder.add(probe, to: &events) }
        }
        let deliveries = events.compactMap { if case .delivered(let d) = $0 { d } else { nil } }
        #expect(deliveries.map(\.timestamp) == [310, 350])
    }

    @Test func theHandOverReportsTheHandlersStillRunningAndStartsTheLineCountsAfresh() {
        var events: [TraceEvent] = []
        var builder = Self.builder(after: Self.add + [Self.post, "D 1 210 aaa f1 0"], events: &events)
        #expect(builder.tally.seen.reduce(0, +) == 4)
        events.removeAll()
        builder.handOver(to: &events)
        guard case .gap(let gap) = events.last else {
            Issue.record("no gap: \(events)")
            return
        }
        #expect(gap.reason == ProbeEventBuilder.probesSwitched && gap.count == 1)
        #expect(builder.tally.seen.reduce(0, +) == 0)
        // Nothing under way after it: a second hand-over reports nothing.
        events.removeAll()
        builder.handOver(to: &events)
        #expect(events.isEmpty)
        // A line of the other side of the cutover is counted as received, not shown.
        builder.skip(ProbeLine("p 1 220")!)
        #expect(builder.tally.seen[ProbeLineKind.postEnd.rawValue] == 1 && events.isEmpty)
    }

    @Test func countsAfterASwitchAreCreditedToRegistrationsTheEventLinesTied() {
        // The event program tied the registration to its delivery context; the counting program that
        // took over never saw its add (`born` 0), and its counts carry no context.
        var events: [TraceEvent] = []
        var builder = Self.builder(after: Self.add + [Self.post, "D 1 210 aaa f1 0", "p 1 220"], events: &events)
        builder.handOver(to: &events)
        var reader = CountingReader(holdNanoseconds: 0)
        reader.note(events)
        // "a" on center 0xc0 from return address 0xfa, thread 1; its closure 0xf1, `born` 0.
        let key = "-2233785415175766016, 97, 0, 0, 0, 0, 0, 0, 0, 192, 0, 250, 1"
        for line in ["K 1000", "@P[\(key)]: 3", "k", "K 2000", "@D[\(key), 241, 0, 0]: 3", "k"] {
            reader.add(CountingLine(line[...])!, now: 0)
        }
        let before = events.count
        reader.release(now: 1, builder: &builder, events: &events)
        let written = Array(events[before...])
        let histories = written.compactMap { if case .history(let h) = $0 { h } else { nil } }
        let registration = events.compactMap { if case .registered(let r) = $0 { r.id } else { nil } }.first
        #expect(histories.map(\.posts) == [3, 0])
        #expect(histories.map(\.deliveries) == [0, 3])
        #expect(histories.last?.registration == registration)
        #expect(!written.contains { if case .gap = $0 { true } else { false } })
        // No event number is taken and left unused: the stream has no hole a viewer counts as lost.
        let numbers = events.compactMap(\.seq)
        #expect(numbers == Array(1...UInt64(numbers.count)))
    }
}
