import Foundation
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import NotifyModel
@testable import NotifySession
import NotifyTraceViewer
import NotifyTUI
import Testing

struct SessionTests {
    @Test("keys drive the whole loop: each view key shows its view, Enter drills, q quits")
    func keysDriveTheLoop() {
        let session = DashboardSession(source: .fixed(Fixture.events()))
        let terminal = InMemoryTerminal(
            size: Size(width: 100, height: 30),
            keys: [.char("2"), .char("3"), .char("4"), .enter, .escape, .char("5"), .char("1"), .char("q")])
        #expect(session.run(on: terminal) == .quit)
        let tabs = terminal.frames.map { $0.lines[4] }
        for title in ["Observers", "Threads", "Leaks › R1", "Events", "Names"] {
            #expect(tabs.contains { $0.hasPrefix(title) }, "\(title)")
        }
        #expect(terminal.frames.contains { $0.lines.contains { $0.contains("cartDidChange") } })
    }

    @Test("an unchanged frame is presented but writes no rows")
    func noRedrawWhenNothingChanged() {
        let session = DashboardSession(source: .fixed(Fixture.events()))
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 24))
        _ = session.run(on: terminal, maxFrames: 1)
        let written = terminal.rowsWritten
        terminal.present(session.render(size: terminal.size, glyphs: .unicode))
        #expect(terminal.rowsWritten == written)
        #expect(terminal.frames.count == 1)
    }

    @Test("pause freezes the screen while events keep being folded, and counts them")
    func pause() {
        let events = Fixture.events()
        let split = events.count - 10
        let session = DashboardSession(source: .fixed(Array(events[..<split])))
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 24), keys: [.char("p")])
        _ = session.run(on: terminal, maxFrames: 2)
        let before = session.render(size: terminal.size, glyphs: .unicode)
        session.ingest(Array(events[split...]))
        let after = session.render(size: terminal.size, glyphs: .unicode)
        #expect(after.lines[0].contains("PAUSED +10"))
        #expect(Array(after.lines[1...]) == Array(before.lines[1...]))
        #expect(session.model.totals.events == UInt64(events.count))
    }

    @Test("a recording replays to the same names table")
    func recordAndReplay() throws {
        let path = temporaryPath("test", suffix: ".ndjson")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes: [UInt8] = []
        TraceEncoder.encode(Fixture.events(), into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let replay = DashboardSession(source: .replay(ReplayFeed(reader: try TraceReader.open(file: path), speed: 0)))
        replay.poll(now: 1)
        replay.poll(now: 2)
        #expect(replay.isEnded)
        let live = DashboardSession(source: .fixed(Fixture.events()))
        #expect(replay.model.names == live.model.names)
        #expect(replay.model.registrations == live.model.registrations)
    }

    @Test("a recording started mid-session opens with a prelude and replays the same observers")
    func runtimeRecording() throws {
        let path = temporaryPath("rec", suffix: ".ndjson")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let events = Fixture.events()
        let session = DashboardSession(source: .fixed(Array(events.prefix(40))))
        session.recordingPath = path
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 24), keys: [.char("r")])
        _ = session.run(on: terminal, maxFrames: 2)
        #expect(session.status.recordingPath == path)
        session.ingest(Array(events.dropFirst(40)))
        terminal.pendingKeys = [.char("r")]
        _ = session.run(on: terminal, maxFrames: 2)
        #expect(session.status.recordingPath == nil)
        let replay = DashboardSession(source: .replay(ReplayFeed(reader: try TraceReader.open(file: path), speed: 0)))
        replay.poll(now: 1)
        #expect(
            replay.model.registrations.filter(\.isLive).map(\.id)
                == session.model.registrations.filter(\.isLive).map(\.id))

        // The prelude's header is re-based to when recording started, so a replay's clock starts
        // there rather than waiting through what happened before.
        let recordedAt = try #require(events.prefix(40).compactMap(\.timestamp).max())
        let reader = try TraceReader.open(file: path)
        guard case .event(.header(let header)) = reader.next(timeoutMilliseconds: 0) else {
            Issue.record("no header first")
            return
        }
        #expect(header.clockMono == recordedAt)
        let feed = try ReplayFeed(path: path, speed: 1)
        _ = feed.advance(elapsedNanoseconds: 0)
        #expect(feed.start == recordedAt)
    }

    @Test("a status message leaves the screen after a few seconds and stays known for the exit line")
    func messagesExpire() {
        let session = DashboardSession(source: .fixed(Fixture.events()))
        session.status.message = "saved 3 rows to notifytop-names-1.txt"
        session.poll(now: 1_000_000_000)
        session.poll(now: 5_000_000_000)
        #expect(session.status.message == "saved 3 rows to notifytop-names-1.txt")
        session.poll(now: 7_500_000_000)
        #expect(session.status.message == nil)
        #expect(session.lastMessage == "saved 3 rows to notifytop-names-1.txt")
        session.status.message = "theme light"
        session.poll(now: 8_000_000_000)
        #expect(session.status.message == "theme light", "a new message starts its own time on screen")
    }

    @Test("+ and - step the redraw delay along a ladder, so going back returns to where it was")
    func delayLadder() {
        var delay = 250
        var seen: [Int] = []
        for faster in [true, true, false, false, false] {
            delay = DashboardSession.nextDelay(after: delay, faster: faster)
            seen.append(delay)
        }
        #expect(seen == [125, 62, 125, 250, 500])
        #expect(DashboardSession.nextDelay(after: 50, faster: true) == 50)
        #expect(DashboardSession.nextDelay(after: 300, faster: true) == 250, "a -d value off the ladder joins it")
    }

    @Test("replay steps one event with '.' and changes speed with '}'")
    func replaySteps() throws {
        let path = temporaryPath("step", suffix: ".ndjson")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes: [UInt8] = []
        TraceEncoder.encode(Fixture.events(), into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let feed = ReplayFeed(reader: try TraceReader.open(file: path), speed: 1)
        let session = DashboardSession(source: .replay(feed))
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 24), keys: [.char("p"), .char("}"), .char(".")])
        _ = session.run(on: terminal, maxFrames: 4)
        #expect(feed.paused)
        #expect(feed.speed == 2)
        let applied = session.model.totals.events
        terminal.pendingKeys = [.char(".")]
        _ = session.run(on: terminal, maxFrames: 2)
        #expect(session.model.totals.events >= applied + 1)
        #expect(terminal.lastFrame!.lines[0].contains("REPLAY PAUSED"))
    }
}
