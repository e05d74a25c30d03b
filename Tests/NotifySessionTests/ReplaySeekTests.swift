import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyModel
import NotifySession
import NotifyTUI
import Testing

/// Replay transport beyond forward play: `--from`/`--to`, `,` and `[` back, `g` to a time.
struct ReplaySeekTests {
    static let base: UInt64 = 5_000_000_000
    static let step: UInt64 = 100_000_000

    /// A header, a clock line at `base` (the recording's start), then `posts` posts, post n at
    /// `base + n × 100 ms`: at time t, exactly ⌊t / 100 ms⌋ posts are due, which makes every
    /// position checkable by counting posts.
    static func recording(posts: Int = 40) throws -> String {
        var events: [TraceEvent] = [
            .header(
                TraceHeader(
                    pid: 7, process: "Tick", center: "default", clockMono: base,
                    clockWall: 0, producer: "test")),
            .tick(TraceTick(seq: 0, timestamp: base)),
        ]
        for index in 1...posts {
            let time = base + UInt64(index) * step
            events.append(
                .posted(
                    TracePost(
                        seq: UInt64(index), timestamp: time, thread: 1, postID: UInt64(index),
                        name: "tick", object: nil, hasUserInfo: false, matched: 0, depth: 1,
                        parentPostID: 0, callsite: 0)))
        }
        let path = temporaryPath("seek", suffix: ".ndjson")
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A paused replay session after `keys` (the clock never moves on its own, so only keys count).
    static func session(_ path: String, keys: [Key], from: UInt64 = 0, to: UInt64? = nil) throws -> DashboardSession {
        let feed = try ReplayFeed(path: path, speed: 1, from: from, to: to)
        feed.paused = true
        let session = DashboardSession(source: .replay(feed))
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 30), keys: keys + [.char("q")])
        _ = session.run(on: terminal)
        return session
    }

    static func typed(_ text: String) -> [Key] { text.map { .char($0) } }

    @Test("a speed change while paused is said in the status line; g before --from says it went to --from")
    func pausedFeedback() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let faster = try Self.session(path, keys: [.char("}"), .char("}")])
        #expect(faster.lastMessage == "replay speed ×4 (paused: p plays)")
        let early = try Self.session(path, keys: [.char("g")] + Self.typed("0.1s") + [.enter], from: 2_000_000_000)
        #expect(early.lastMessage?.hasPrefix("went to --from (@") == true, "\(early.lastMessage ?? "no message")")
    }

    @Test("times parse as 1.5s, 250ms, 2m or plain seconds; anything else is refused")
    func timeOffsets() {
        #expect(TimeOffset.nanoseconds("1.5s") == 1_500_000_000)
        #expect(TimeOffset.nanoseconds("250ms") == 250_000_000)
        #expect(TimeOffset.nanoseconds("2m") == 120_000_000_000)
        #expect(TimeOffset.nanoseconds("3") == 3_000_000_000)
        #expect(TimeOffset.nanoseconds(" 0.5 ") == 500_000_000)
        for bad in ["", "s", "abc", "-1s", "1h", "1.2.3s", "1e3", "inf"] {
            #expect(TimeOffset.nanoseconds(bad) == nil, "\(bad)")
        }
    }

    @Test("',' '[' and 'g' are replay keys; outside replays g still goes to the top row")
    func keymap() {
        let keymap = Keymap.standard
        #expect(keymap.action(for: .char("g"), isReplay: true) == .goToTime)
        #expect(keymap.action(for: .char("g"), isReplay: false) == .home)
        #expect(keymap.action(for: .home, isReplay: true) == .home)
        #expect(keymap.action(for: .char(","), isReplay: true) == .stepBackEvent)
        #expect(keymap.action(for: .char("["), isReplay: true) == .stepBackSecond)
        #expect(keymap.action(for: .char(","), isReplay: false) == nil)
        #expect(keymap.action(for: .char("["), isReplay: false) == nil)
    }

    @Test("the g prompt takes a time, Enter goes there, Esc cancels, nonsense is refused with a reason")
    func prompt() {
        var view = ViewState()
        let context = FrameInfo(isReplay: true)
        _ = view.handle(.char("g"), context: context)
        #expect(view.prompt == Prompt(kind: .time))
        for key in Self.typed("1.5s") { _ = view.handle(key, context: context) }
        #expect(view.prompt?.text == "1.5s")
        #expect(view.handle(.enter, context: context).command == .goToTime(1_500_000_000))
        #expect(view.prompt == nil)
        _ = view.handle(.char("g"), context: context)
        _ = view.handle(.char("x"), context: context)
        #expect(view.handle(.enter, context: context).command == nil)
        #expect(view.prompt?.text == "x")
        #expect(view.prompt?.error != nil)
        _ = view.handle(.escape, context: context)
        #expect(view.prompt == nil)
        let frame = Dashboard.render(
            DashboardData(model: InspectorState(), status: SessionStatus(mode: .replay(speed: 1, paused: true))),
            view: {
                var v = ViewState(); v.prompt = Prompt(kind: .time, text: "2"); return v
            }(),
            size: Size(width: 100, height: 30), glyphs: .unicode
        ).canvas
        #expect(frame.lines[4].contains("Go to time (1.5s, 250ms, 2m): 2_"))
    }

    @Test("',' steps back one event: the same state as one step fewer forward")
    func backOneEvent() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let back = try Self.session(path, keys: Array(repeating: .char("."), count: 5) + [.char(",")])
        let forward = try Self.session(path, keys: Array(repeating: .char("."), count: 4))
        #expect(back.model.totals.posts == forward.model.totals.posts)
        #expect(back.model.names == forward.model.names)
        #expect(back.model.totals.posts == 4)  // the clock line at the start comes with the first frame, then 4 steps
    }

    @Test("'g' goes to a time, forward or back, and '[' goes back one second")
    func goToAndBackSecond() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let forward = try Self.session(path, keys: [.char("g")] + Self.typed("2.25s") + [.enter])
        #expect(forward.model.totals.posts == 22)
        let back = try Self.session(
            path, keys: [.char("g")] + Self.typed("3s") + [.enter, .char("g")] + Self.typed("1200ms") + [.enter])
        #expect(back.model.totals.posts == 12)
        #expect(back.status.mode == .replay(speed: 1, paused: true))
        let second = try Self.session(path, keys: [.char("g")] + Self.typed("2.5") + [.enter, .char("[")])
        #expect(second.model.totals.posts == 15)
        #expect(second.tail.events.count == 16)  // the clock line and 15 posts
    }

    @Test("seeking is deterministic: the same keys over the same file give the same frame")
    func deterministic() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let keys: [Key] = [.char(".")] + [.char("g")] + Self.typed("3s") + [.enter, .char(","), .char("["), .char(".")]
        let a = try Self.session(path, keys: keys)
        let b = try Self.session(path, keys: keys)
        let size = Size(width: 100, height: 30)
        #expect(
            a.render(size: size, glyphs: .unicode).lines.dropFirst()
                == b.render(size: size, glyphs: .unicode).lines.dropFirst())
        #expect(a.model.totals.posts == 20)  // 1, +1, 30, 29, 19 (2.9 s - 1 s), 20
    }

    @Test("--from folds the events before it at once; --to ends the replay there (ENDED), and keys can go back")
    func bounds() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let from = try Self.session(path, keys: [], from: 1_500_000_000)
        #expect(from.model.totals.posts == 15)
        let to = try Self.session(path, keys: [.char("g")] + Self.typed("9s") + [.enter], to: 2_000_000_000)
        #expect(to.model.totals.posts == 20)
        #expect(to.isEnded)
        #expect(to.status.mode == .ended("reached --to 2.0 s"))
        let rewound = try Self.session(
            path, keys: [.char("g")] + Self.typed("9s") + [.enter, .char("[")], to: 2_000_000_000)
        #expect(rewound.model.totals.posts == 10)
        #expect(!rewound.isEnded)
    }

    @Test("a full-speed replay bounded by --from and --to folds exactly the events in between")
    func batchBounds() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = DashboardSession(
            source: .replay(
                try ReplayFeed(
                    path: path, speed: 0, from: 1_000_000_000,
                    to: 2_000_000_000)))
        for tick in 1...5 { session.poll(now: UInt64(tick)) }
        #expect(session.model.totals.posts == 20)
        #expect(session.isEnded)
    }

    /// A paused replay folding seeks `chunk` events per pass of the run loop; `scripts` are typed
    /// one after another, each once the seek before it has ended.
    static func slicedSession(
        _ path: String, chunk: Int = 5, from: UInt64 = 0, scripts: [[Key]]
    ) throws -> (DashboardSession, InMemoryTerminal) {
        let feed = try ReplayFeed(path: path, speed: 1, from: from)
        feed.paused = true
        let session = DashboardSession(source: .replay(feed))
        session.seekChunk = chunk
        session.seekPassNanoseconds = 0
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 30))
        var waiting = scripts
        terminal.onKeysExhausted = { [unowned terminal] in
            guard !session.isSeeking else { return nil }
            guard !waiting.isEmpty else { return .char("q") }
            terminal.pendingKeys = waiting.removeFirst()
            return terminal.pendingKeys.removeFirst()
        }
        _ = session.run(on: terminal)
        return (session, terminal)
    }

    @Test("a long seek folds in slices, showing how far it has got; it ends where one fold would")
    func slicedSeekShowsProgress() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (session, terminal) = try Self.slicedSession(
            path,
            scripts: [
                [.char("g")] + Self.typed("3s") + [.enter], [.char("g")] + Self.typed("1200ms") + [.enter],
            ])
        let crumbs = terminal.frames.map { $0.lines[4] }
        #expect(crumbs.contains { $0.contains("going to @3.000s: ") && $0.contains("% (Esc stops)") }, "\(crumbs)")
        #expect(crumbs.contains { $0.contains("going back to @1.200s: ") }, "\(crumbs)")
        #expect(!session.isSeeking)
        #expect(session.model.totals.posts == 12)
        #expect(session.status.progress == nil)
        #expect(terminal.frames.last?.lines[4].contains("going") == false)
    }

    @Test("--from folds what precedes it in slices, answering keys meanwhile; it ends where one fold would")
    func fromFoldsInSlices() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (session, terminal) = try Self.slicedSession(path, from: 3_000_000_000, scripts: [])
        let crumbs = terminal.frames.map { $0.lines[4] }
        #expect(crumbs.contains { $0.contains("going to @3.000s: ") }, "\(crumbs)")
        #expect(session.model.totals.posts == 30)
        #expect(!session.isSeeking)
        // A key during that fold is answered at once: Esc leaves the replay where the fold got to.
        let feed = try ReplayFeed(path: path, speed: 1, from: 3_000_000_000)
        feed.paused = true
        let stopped = DashboardSession(source: .replay(feed))
        stopped.seekChunk = 5
        stopped.seekPassNanoseconds = 0
        _ = stopped.run(on: InMemoryTerminal(size: Size(width: 100, height: 30), keys: [.escape, .char("q")]))
        #expect(stopped.model.totals.posts > 0 && stopped.model.totals.posts < 30, "\(stopped.model.totals.posts)")
    }

    @Test("Esc stops a seek where its fold has got to; q quits during one")
    func escapeStopsASeek() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (stopped, _) = try Self.slicedSession(
            path, scripts: [[.char("g")] + Self.typed("3s") + [.enter, .escape]])
        #expect(!stopped.isSeeking)
        #expect(stopped.model.totals.posts > 0 && stopped.model.totals.posts < 30, "\(stopped.model.totals.posts)")
        #expect(stopped.lastMessage?.hasPrefix("stopped going to @3.000s at @") == true, "\(stopped.lastMessage ?? "")")
        let (quit, _) = try Self.slicedSession(path, scripts: [[.char("g")] + Self.typed("3s") + [.enter, .char("q")]])
        #expect(quit.model.totals.posts < 30)
    }

    @Test("a step during a seek is refused with a reason, and the seek goes on to its target")
    func stepDuringASeek() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (session, terminal) = try Self.slicedSession(
            path, scripts: [[.char("g")] + Self.typed("3s") + [.enter, .char(".")]])
        #expect(session.model.totals.posts == 30)
        #expect(
            terminal.frames.contains { $0.lines[4].contains("no steps during a seek: wait, or Esc stops it") },
            "\(terminal.frames.map { $0.lines[4] })")
    }
}
