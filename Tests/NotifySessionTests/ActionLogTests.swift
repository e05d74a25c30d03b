import NotifyTUITestSupport
import NotifyWire
import NotifySession
import NotifyTUI
import Testing

struct ActionLogTests {
    @Test("the log is a bounded ring that counts what it drops")
    func ring() {
        var log = ActionLog(capacity: 3)
        for index in 0..<5 { log.append(.note, "entry \(index)", at: UInt64(index)) }
        #expect(log.count == 3 && log.dropped == 2)
        #expect(log.entries.map(\.text) == ["entry 2", "entry 3", "entry 4"])
    }

    @Test("times show as a local time of day with milliseconds")
    func clock() {
        let noon: UInt64 = 1_700_000_000_000_000_000 + 123_000_000  // 2023-11-14 22:13:20.123 UTC
        #expect(Format.clock(noon) == "22:13:20.123")
        #expect(Format.clock(noon, utcOffsetSeconds: 3_600) == "23:13:20.123")
        #expect(Format.clock(noon, utcOffsetSeconds: -23 * 3_600) == "23:13:20.123")
    }

    @Test("view 6 lists what notifytop did, with the drop counter in the tab line")
    func view() {
        let (canvas, info) = Dashboard.render(
            Fixture.data(), view: ViewState(view: .log), size: Size(width: 100, height: 20),
            glyphs: .unicode)
        #expect(canvas.lines[3].contains("6 Log") && canvas.lines[3].contains("kept 3  dropped 0"))
        #expect(canvas.lines.contains { $0.hasPrefix("22:13:20.123 attach    attached to /tmp/notifykit/4242.sock") })
        #expect(canvas.lines.contains { $0.contains("loss      12 events lost (buffer-full)") })
        #expect(info.isLog && info.rowKeys.count == 3)
    }

    @Test("the session logs the stream header, gaps, the end and saves; callers can add reconnects")
    func sessionEntries() {
        var events = Fixture.events()
        events.append(.gap(TraceGap(seq: 9_000, timestamp: 9_000, count: 42, reason: "buffer-full")))
        events.append(.end(TraceEnd(seq: 9_001, timestamp: 9_001, reason: "process-exit")))
        let session = DashboardSession(source: .fixed(events))
        session.exportDirectory = "/nonexistent/notifytop"
        session.logAction(.reconnect, "reattached to pid 4243")
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 24), keys: [.control("s")])
        _ = session.run(on: terminal, maxFrames: 2)
        let texts = session.actions.entries.map { "\($0.kind.rawValue) \($0.text)" }
        #expect(texts.contains { $0.hasPrefix("stream stream header: ShopDemo pid 4242") })
        #expect(texts.contains("loss 42 events lost (buffer-full)"))
        #expect(texts.contains("stream producer ended the stream (process-exit)"))
        #expect(texts.contains("reconnect reattached to pid 4243"))
        #expect(texts.contains { $0.hasPrefix("export cannot save the view: ") })
    }

    @Test("a filter that cannot be applied is logged")
    func filterErrors() {
        let session = DashboardSession(source: .fixed(Fixture.events()))
        let keys: [Key] = [.char("/")] + "bogus>1".map { Key.character($0) } + [.enter]
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 24), keys: keys)
        _ = session.run(on: terminal, maxFrames: keys.count + 1)
        #expect(session.actions.entries.contains { $0.kind == .filter && $0.text.contains("unknown field bogus") })
    }
}
