import Foundation
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import NotifyModel
import NotifySession
import Testing

/// `notifytop diff`: two recordings folded and compared per name and per warning.
struct RecordingDiffTests {
    /// Writes events to a fresh temporary file and returns its path.
    private func write(_ events: [TraceEvent]) throws -> String {
        let path = temporaryPath("diff", suffix: ".ndjson")
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The fixture up to (not including) its token drop, so the R1 warning exists only in the whole.
    private var beforeTokenDrop: [TraceEvent] {
        let events = Fixture.events()
        let drop = events.firstIndex { if case .tokenDropped = $0 { true } else { false } }!
        return Array(events[..<drop])
    }

    private func diff(_ a: [TraceEvent], _ b: [TraceEvent]) throws -> RecordingDiff {
        let pathA = try write(a)
        let pathB = try write(b)
        defer {
            try? FileManager.default.removeItem(atPath: pathA)
            try? FileManager.default.removeItem(atPath: pathB)
        }
        return RecordingDiff(try RecordingFold(path: pathA), try RecordingFold(path: pathB))
    }

    @Test("per name: observers and deliveries A → B with deltas")
    func perName() throws {
        let result = try diff(beforeTokenDrop, Fixture.events())
        let cart = try #require(result.names.first { $0.name == "cartDidChange" })
        #expect(cart.deliveriesA == 16)
        #expect(cart.deliveriesB == 20)
        #expect(cart.deliveriesDelta == 4)
        let login = try #require(result.names.first { $0.name == "userDidLogin" })
        #expect((login.observersA, login.observersB, login.observersDelta) == (1, 0, -1))
        #expect(result.text.contains("1 → 0"))
        #expect(result.text.contains("DELIV/S"))
    }

    @Test("recordings of different lengths: a note says so, and deliveries per second are shown")
    func differentLengths() throws {
        let whole = Fixture.events()
        let result = try diff(Array(whole.prefix(whole.count / 3)), whole)
        let ratio = Double(result.b.durationNs) / Double(result.a.durationNs)
        try #require(ratio > 1.2)
        #expect(result.text.contains("note: the recordings differ in length"), "\(result.text)")
        let same = try diff(whole, whole)
        #expect(!same.text.contains("differ in length"))
    }

    @Test("a warning open only in B is new; reversed, it is resolved; the exit rule follows severity")
    func newAndResolved() throws {
        let forward = try diff(beforeTokenDrop, Fixture.events())
        #expect(forward.newWarnings.contains { $0.rule == "R1" && $0.severity == "error" })
        #expect(forward.resolvedWarnings.isEmpty)
        #expect(forward.hasNewWarnings(atLeast: .error))
        let backward = try diff(Fixture.events(), beforeTokenDrop)
        #expect(backward.newWarnings.allSatisfy { $0.rule != "R1" })
        #expect(backward.resolvedWarnings.contains { $0.rule == "R1" })
        #expect(!backward.hasNewWarnings(atLeast: .error))
        #expect(forward.text.contains("New warnings in B (\(forward.newWarnings.count)):"))
        #expect(backward.text.contains("Resolved in B"))
    }

    @Test("a rerun with other trace ids for the same callsites has no new or resolved warnings")
    func stableIdentity() throws {
        let renumbered = Fixture.events().map { event -> TraceEvent in
            switch event {
            case .callsite(var site): site.id += 10; return .callsite(site)
            case .registered(var registration): registration.callsite += 10; return .registered(registration)
            case .posted(var post): post.callsite += 10; return .posted(post)
            default: return event
            }
        }
        let result = try diff(Fixture.events(), renumbered)
        #expect(result.newWarnings.isEmpty)
        #expect(result.resolvedWarnings.isEmpty)
        #expect(result.names.allSatisfy { $0.observersDelta == 0 && $0.deliveriesDelta == 0 })
    }

    @Test("the JSON report decodes, with deltas and both warning lists")
    func json() throws {
        let result = try diff(beforeTokenDrop, Fixture.events())
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.json.utf8)) as? [String: Any])
        let names = try #require(object["names"] as? [[String: Any]])
        let cart = try #require(names.first { $0["name"] as? String == "cartDidChange" })
        #expect(cart["deliveries_delta"] as? Int == 4)
        #expect((object["new_warnings"] as? [[String: Any]])?.isEmpty == false)
        #expect(object["resolved_warnings"] as? [Any] != nil)
        #expect((object["a"] as? [String: Any])?["pid"] as? Int == 4242)
    }

    @Test("a missing file, a file that is not a trace, and an empty file are one-line errors")
    func unreadable() throws {
        #expect(throws: RecordingFold.Failure.self) { try RecordingFold(path: "/nonexistent/a.ndjson") }
        let garbage = temporaryPath("diff-garbage", suffix: ".txt")
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: garbage))
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        do {
            _ = try RecordingFold(path: garbage)
            Issue.record("a text file folded")
        } catch {
            #expect(error.description.contains(garbage))
            #expect(!error.description.contains("\n"))
        }
        let empty = try write([])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: RecordingFold.Failure.self) { try RecordingFold(path: empty) }
    }

    /// A session delivering `perSecond` a second for `before` seconds, then `r`, then `after` more
    /// seconds recorded, then `r` again: the file `r` writes.
    private func recordedMidSession(perSecond: Int, before: Int, after: Int) throws -> String {
        let second: UInt64 = 1_000_000_000
        let start: UInt64 = 500 * second
        var script = TraceScript(
            header: TraceHeader(
                pid: 31, process: "Steady", center: "default", clockMono: start - 60 * second, clockWall: 0,
                producer: "test"),
            time: start)
        script.register(1, "SessionDidChange", site: 5)
        for tick in 1...(before + after) * perSecond {
            script.advance(start + UInt64(tick) * second / UInt64(perSecond) - script.time)
            script.postAndDeliver("SessionDidChange", to: [1], site: 5, duration: 1_000)
        }
        let events = script.events
        let split = events.firstIndex {
            guard case .posted(let post) = $0 else { return false }
            return post.timestamp > start + UInt64(before) * second
        }!
        let path = temporaryPath("diff-r", suffix: ".ndjson")
        var memory = SessionRecorder.Memory()
        for event in events[..<split] { memory.observe(event) }
        var recorder = try SessionRecorder(path: path, memory: memory)
        for event in events[split...] { recorder.write(event) }
        recorder.writeUserStop()
        recorder.flush()
        return path
    }

    @Test("rates of a recording made after a late attach divide its history by the time since the history began")
    func ratesAfterLateAttach() throws {
        let second: UInt64 = 1_000_000_000
        let since: UInt64 = 100 * second
        let attach = since + 30 * second
        var script = TraceScript(
            header: TraceHeader(
                pid: 32, process: "Late", center: "default", clockMono: attach, clockWall: 0, producer: "test",
                since: since),
            time: attach)
        script.register(1, "SessionDidChange", site: 5)
        let prelude = script.events.count
        // 30 s of history at 10 a second, then 10 s seen live at the same rate.
        let history = TraceEvent.history(
            TraceHistory(timestamp: attach, thread: 1, name: "SessionDidChange", posts: 300, deliveries: 300))
        for tick in 1...100 {
            script.advance(attach + UInt64(tick) * second / 10 - script.time)
            script.postAndDeliver("SessionDidChange", to: [1], site: 5, duration: 1_000)
        }
        let path = try write(script.events.prefix(prelude) + [history] + script.events.dropFirst(prelude))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fold = try RecordingFold(path: path)
        #expect(abs(Double(fold.duration) / 1e9 - 40) < 0.1, "\(fold.duration)")
        let result = RecordingDiff(fold, fold)
        let line = try #require(result.text.split(separator: "\n").first { $0.hasPrefix("SessionDidChange") })
        #expect(line.hasSuffix("10.0 → 10.0"), "\(line)")
    }

    @Test(
        "rates of recordings made with r divide the history they open with by the time it covers, not by the time after r"
    )
    func ratesOverCoveredTime() throws {
        let pathA = try recordedMidSession(perSecond: 20, before: 250, after: 6)
        let pathB = try recordedMidSession(perSecond: 10, before: 250, after: 16)
        defer {
            try? FileManager.default.removeItem(atPath: pathA)
            try? FileManager.default.removeItem(atPath: pathB)
        }
        let result = RecordingDiff(try RecordingFold(path: pathA), try RecordingFold(path: pathB))
        let row = try #require(result.names.first { $0.name == "SessionDidChange" })
        #expect(row.deliveriesA == 256 * 20)
        #expect(row.deliveriesB == 266 * 10)
        #expect(abs(Double(result.a.durationNs) / 1e9 - 256) < 0.1, "\(result.a.durationNs)")
        #expect(abs(Double(result.a.recordedNs) / 1e9 - 6) < 0.1, "\(result.a.recordedNs)")
        #expect(abs(Double(result.b.durationNs) / 1e9 - 266) < 0.1, "\(result.b.durationNs)")
        let line = try #require(result.text.split(separator: "\n").first { $0.hasPrefix("SessionDidChange") })
        #expect(line.hasSuffix("20.0 → 10.0"), "\(line)")
        #expect(result.text.contains("256.0 s (6.0 s of it recorded"), "\(result.text)")
        #expect(!result.text.contains("differ in length"), "\(result.text)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.json.utf8)) as? [String: Any])
        let a = try #require(object["a"] as? [String: Any])
        #expect((a["duration_ns"] as? Int).map { abs($0 - 256_000_000_000) < 100_000_000 } == true, "\(a)")
        #expect((a["recorded_ns"] as? Int).map { abs($0 - 6_000_000_000) < 100_000_000 } == true, "\(a)")
    }
}
