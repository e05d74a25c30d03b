import NotifyFoundationProbe
import NotifyWire
import Testing

/// The counting mode: posts and deliveries counted in the kernel's maps, read as `history` lines
/// (marked `recent`) that add up to the figures the event lines give.
@Suite struct CountingModeTests {
    /// "cart" as a small string's words, and as bpftrace prints the high word (signed).
    static let cartHigh = "-2017612633061982208"
    static let cartLow = "1953653091"
    /// `@P`'s key for "cart" on center 0xc0, return address 0xfa, thread `tid`.
    static func key(_ tid: Int) -> String { "\(cartHigh), \(cartLow), 0, 0, 0, 0, 0, 0, 0, 192, 0, 250, \(tid)" }

    /// Two registrations of one block, added at 100 and 120 ns (the `born` deliveries carry).
    static let adds = [
        "A 1 100 c0 0 0 f1 0 fa 12 12 S 74726163 e400000000000000", "a 1 110 0 0",
        "A 1 120 c0 0 0 f1 0 fa 12 12 S 74726163 e400000000000000", "a 1 130 1 0",
    ]

    /// The history lines the builder and the reader make of `reads` (each a read's lines) after `lines`.
    static func histories(after lines: [String], reads: [[String]]) -> [TraceEvent] {
        var builder = ProbeEventBuilder(pid: 1, lookups: testLookups)
        var reader = CountingReader(holdNanoseconds: 0)
        var events: [TraceEvent] = []
        for line in lines {
            guard let probe = ProbeLine(line[...]) else {
                Issue.record("not a probe line: \(line)")
                continue
            }
            builder.add(probe, to: &events)
        }
        reader.note(events)
        for (index, read) in reads.enumerated() {
            for line in ["K \(1_000 * (index + 1))"] + read + ["k"] {
                guard let counted = CountingLine(line[...]) else {
                    Issue.record("not a counting line: \(line)")
                    continue
                }
                reader.add(counted, now: 0)
            }
        }
        reader.release(now: 1, builder: &builder, events: &events)
        return events
    }

    @Test func mapLinesParseWithSignedWords() {
        let line = CountingLine("@D[\(Self.key(2)), 241, 0, 100]: 3")
        guard case .deliveries(let post, let function, let context, let born, let count) = line else {
            Issue.record("not parsed: \(String(describing: line))")
            return
        }
        #expect(post.name.probeName == .text("cart", truncated: false))
        #expect((post.center, post.caller, post.thread) == (0xc0, 0xfa, 2))
        #expect((function, context, born, count) == (0xf1, 0, 100, 3))
        #expect(CountingLine("@P[\(Self.key(2))]: 18446744073709551615") == .posts(post, count: .max))
        #expect(CountingLine("K 55") == .begin(time: 55))
        #expect(CountingLine("k") == .end)
    }

    @Test func hostileMapLinesAreRefused() {
        for line in [
            "@P[\(Self.key(2))]: 99999999999999999999", "@P[\(Self.key(2)), 5]: 1", "@P[1, 2]: 1",
            "@P[\(Self.key(2))]:1", "@c[3, 1]: 42", "@cur[1, 2]: (1, 2)", "@P[\(Self.key(2))", "K x", "@P[]: 1",
            "@D[\(Self.key(2)), 1, 2, ‮3]: 1",
        ] {
            #expect(CountingLine(line[...]) == nil, "\(line)")
        }
    }

    @Test func namesDecodeAsLinesWouldShowThem() {
        #expect(CountedName(high: 0, words: Array(repeating: 0, count: 8)).probeName == ProbeName.none)
        // "SyncFinished" and more: a large string's count and its bytes, cut at 63.
        let text = Array("SyncFinishedWithAVeryLongNameThatGoesOnAndOnBeyondSixtyThreeBytesOfText".utf8)
        var words = [UInt64](repeating: 0, count: 8)
        for (index, byte) in text.prefix(63).enumerated() {
            words[index / 8] |= UInt64(byte) << (UInt64(index % 8) * 8)
        }
        let name = CountedName(high: UInt64(text.count), words: words)
        #expect(name.probeName == .text(String(decoding: text.prefix(63), as: UTF8.self), truncated: true))
        #expect(name.probeName?.shown?.hasSuffix("…") == true)
        // A count at 2^48 - 1 with no bytes decodes, cut, without trapping.
        #expect(CountedName(high: 0xffff_ffff_ffff, words: []).probeName == .text("", truncated: true))
    }

    @Test func aReadBecomesRecentHistoryPerThreadNameAndRegistration() {
        let events = Self.histories(
            after: Self.adds,
            reads: [
                [
                    "@P[\(Self.key(2))]: 2", "@D[\(Self.key(2)), 241, 0, 100]: 1", "@D[\(Self.key(2)), 241, 0, 120]: 2",
                ]
            ])
        let histories = events.compactMap { if case .history(let h) = $0 { h } else { nil } }
        #expect(histories.allSatisfy { $0.recent })
        #expect(histories.allSatisfy { $0.name == "cart" && $0.timestamp == 1_000 })
        #expect(histories.map(\.posts).reduce(0, +) == 2)
        #expect(histories.filter { $0.registration == 1 }.map(\.deliveries) == [1])
        #expect(histories.filter { $0.registration == 2 }.map(\.deliveries) == [2])
        // The thread is introduced before its first history line.
        let thread = events.firstIndex { if case .thread(let t) = $0 { t.systemID == 2 } else { false } }
        let first = events.firstIndex { if case .history = $0 { true } else { false } }
        #expect(thread != nil && first != nil && thread! < first!)
    }

    @Test func laterReadsGiveOnlyTheDifferences() {
        let events = Self.histories(
            after: Self.adds,
            reads: [
                ["@P[\(Self.key(2))]: 2", "@D[\(Self.key(2)), 241, 0, 100]: 1"],
                ["@P[\(Self.key(2))]: 5", "@D[\(Self.key(2)), 241, 0, 100]: 1", "@U[\(Self.key(2))]: 1"],
            ])
        let histories = events.compactMap { if case .history(let h) = $0 { h } else { nil } }
        #expect(histories.map(\.posts) == [2, 0, 3])
        #expect(histories.map(\.deliveries) == [0, 1, 0])
        #expect(histories.map(\.unheard) == [0, 0, 1])
    }

    /// The same workload seen both ways: a post on each of two threads running both registrations,
    /// then a post with no observer. Event lines and map reads give the same figures per name,
    /// thread and registration.
    @Test func bothModesGiveTheSameFigures() {
        let post = "P 2 200 c0 0 0 fa 20 20 S 74726163 e400000000000000"
        let lines =
            Self.adds + [
                post, "D 2 210 aaa f1 0", "D 2 260 bbb f1 0", "p 2 300",
                "P 3 400 c0 0 0 fa 20 20 S 74726163 e400000000000000", "D 3 410 aaa f1 0", "D 3 420 bbb f1 0",
                "p 3 430",
            ]
        var figures: [String: UInt64] = [:]
        for event in probeEvents(lines) {
            switch event {
            case .posted(let p): figures["posts \(p.name) \(p.thread)", default: 0] += 1
            case .delivered(let d): figures["deliveries \(d.registration) \(d.thread)", default: 0] += 1
            default: break
            }
        }
        var counted: [String: UInt64] = [:]
        let reads = [
            "@P[\(Self.key(2))]: 1", "@P[\(Self.key(3))]: 1", "@D[\(Self.key(2)), 241, 0, 100]: 1",
            "@D[\(Self.key(2)), 241, 0, 120]: 1", "@D[\(Self.key(3)), 241, 0, 100]: 1",
            "@D[\(Self.key(3)), 241, 0, 120]: 1",
        ]
        for case .history(let h) in Self.histories(after: Self.adds, reads: [reads]) {
            if h.posts > 0 { counted["posts \(h.name ?? "") \(h.thread)", default: 0] += h.posts }
            if h.deliveries > 0 { counted["deliveries \(h.registration ?? 0) \(h.thread)", default: 0] += h.deliveries }
        }
        #expect(figures.count == 6)
        #expect(counted == figures)
    }

    @Test func theProgramCountsInsteadOfPrintingPostsAndDeliveries() throws {
        let events = ProbeProgram(
            pid: 42, library: "/proc/42/map_files/7f00-7f80", queueLibrary: "/proc/42/map_files/8f00-8f80")
        let text = try CountingProgram(events: events).text()
        for tag in ["P", "D", "p", "d", "O", "o", "W", "w"] {
            #expect(!text.contains("printf(\"\(tag) "), "a \(tag) line is still printed")
        }
        #expect(text.contains("@P[") && text.contains("@D[") && text.contains("@U["))
        #expect(text.contains("printf(\"A ") && text.contains("printf(\"R ") && text.contains("printf(\"E "))
        // Every add keeps its time by its closure, in the probe that prints its line.
        #expect(text.split(separator: "\n").filter { $0.contains("@born[reg(") }.count == 3)
        #expect(
            text.contains("interval:ms:\(CountingProgram.readMilliseconds) { printf(\"K %llu\\n\", nsecs); print(@P);"))
        let unsafe = ProbeProgram(pid: 42, library: "/tmp/x\" } BEGIN { system(\"id\") }")
        #expect(throws: FoundationAttachError.self) { _ = try CountingProgram(events: unsafe).text() }
    }
}
