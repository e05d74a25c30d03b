import Foundation
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTUI
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyTraceViewer
import NotifyWire
import Testing

/// The `b` mark is a set of one process's registration ids: a replay's seek folds the same
/// recording again and a reconnect to the same process keeps its ids, so the mark stays and
/// compares against the same set; another process numbers its registrations afresh, so its
/// stream clears the mark, and says so.
@Suite(.timeLimit(.minutes(10)))
struct RegistrationMarkAcrossStreamsTests {
    static func header(pid: Int32, process: String = "Shop") -> TraceHeader {
        TraceHeader(
            pid: pid, process: process, center: "default", clockMono: TraceScript.start, clockWall: 0,
            producer: "test")
    }

    /// Registrations 1 and 2 on "a" and 3 on "b" at 0.2 s; at 1.2 s 4 on "a" and 5 on "c" come and
    /// 3 goes; the recording ends at 2.2 s.
    static func recording() throws -> String {
        var s = TraceScript(header: header(pid: 7), time: TraceScript.start)
        s.tick()
        s.advance(200 * TraceScript.ms)
        s.register(1, "a", site: 10)
        s.register(2, "a", site: 11)
        s.register(3, "b", site: 12)
        s.advance(TraceScript.second)
        s.register(4, "a", site: 13)
        s.register(5, "c", site: 14)
        s.remove(3, reason: .explicit)
        s.advance(TraceScript.second)
        s.tick()
        let path = temporaryPath("mark-seek", suffix: ".ndjson")
        var bytes: [UInt8] = []
        TraceEncoder.encode(s.events, into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A paused replay of `path` after `keys`, pressed in the real run loop.
    static func replay(_ path: String, keys: [Key]) throws -> DashboardSession {
        let feed = try ReplayFeed(path: path, speed: 1)
        feed.paused = true
        let session = DashboardSession(source: .replay(feed))
        _ = session.run(on: InMemoryTerminal(size: Size(width: 120, height: 30), keys: keys + [.char("q")]))
        return session
    }

    static func goTo(_ time: String) -> [Key] { [.char("g")] + time.map { .char($0) } + [.enter] }

    static func changes(_ session: DashboardSession) throws -> [String: String] {
        let mark = try #require(session.status.registrationMark)
        return mark.changes(session.model).mapValues { "+\($0.added)/-\($0.removed)" }
    }

    @Test("after a seek back the mark compares against the same set: before it, after it, and forward again")
    func keptAcrossSeek() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let marked = Self.goTo("0.5s") + [.char("b")]

        let back = try Self.replay(path, keys: marked + Self.goTo("1.5s") + Self.goTo("0.1s"))
        #expect(back.status.registrationMark?.live == [1: "a", 2: "a", 3: "b"])
        #expect(back.model.registrations.isEmpty, "folded again from the start, to before the registrations")
        #expect(try Self.changes(back) == ["a": "+0/-2", "b": "+0/-1"])

        let forward = try Self.replay(path, keys: marked + Self.goTo("0.1s") + Self.goTo("1.5s"))
        #expect(forward.status.registrationMark?.live == [1: "a", 2: "a", 3: "b"])
        #expect(try Self.changes(forward) == ["a": "+1/-0", "b": "+0/-1", "c": "+1/-0"])
        let names = forward.render(size: Size(width: 120, height: 30), glyphs: .ascii).plainText
        #expect(names.contains("SINCE") && names.contains("+1/-0"), "\(names)")
    }

    /// A live stream of `events` whose connection this test closes with `close`.
    final class Stream {
        let reader: TraceReader
        private var writer: Int32

        init(_ events: [TraceEvent]) throws {
            var fds: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
            var bytes: [UInt8] = []
            TraceEncoder.encode(events, into: &bytes)
            try #require(bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == bytes.count)
            writer = fds[1]
            reader = TraceReader(source: .socket(UnixSocket(descriptor: fds[0])), origin: "/d/app.sock")
        }

        func close() {
            if writer >= 0 { Glibc.close(writer) }
            writer = -1
        }

        deinit { close() }
    }

    static func registrations(_ ids: [UInt64], pid: Int32, process: String = "Shop") -> [TraceEvent] {
        var s = TraceScript(header: header(pid: pid, process: process), time: TraceScript.start)
        for id in ids { s.register(id, id == 4 ? "c" : "a", site: 10 + id) }
        s.tick()
        return s.events
    }

    /// Marks registrations 1–3 of `first` with `b`, ends its stream while the process runs, and
    /// reconnects to `second`; returns the session once `second` is folded.
    static func reconnect(to second: [TraceEvent]) throws -> DashboardSession {
        let first = try Stream(registrations([1, 2, 3], pid: getpid()))
        let next = try Stream(second)
        next.close()
        let session = DashboardSession(source: .live(LiveFeed(reader: first.reader)))
        var connects = 0
        session.reattacher = Reattacher(
            match: .socket("/d/app.sock"), lastPid: getpid(),
            connect: { _ throws(TraceError) in
                connects += 1
                guard connects == 1 else { throw .invalid("connection refused") }
                return next.reader
            }, followsRestarts: false)
        #expect(session.pollUntil { session.model.registrations.count == 3 })
        _ = session.run(on: InMemoryTerminal(size: Size(width: 120, height: 30), keys: [.char("b"), .char("q")]))
        try #require(session.status.registrationMark?.live.count == 3)
        first.close()
        #expect(session.pollUntil { connects >= 1 && session.model.registrations.contains { $0.id == 4 } })
        #expect(session.actions.entries.contains { $0.text.hasPrefix("reconnected to ") })
        return session
    }

    @Test("a reconnect to the same process keeps the mark: its ids are the same registrations")
    func keptAcrossReconnect() throws {
        let session = try Self.reconnect(to: Self.registrations([1, 2, 4], pid: getpid()))
        #expect(session.status.registrationMark?.live == [1: "a", 2: "a", 3: "a"])
        #expect(try Self.changes(session) == ["a": "+0/-1", "c": "+1/-0"])
        #expect(!session.actions.entries.contains { $0.text.hasPrefix("b mark cleared") })
    }

    @Test("a stream from another process clears the mark and says so: its ids are other registrations")
    func clearedForAnotherProcess() throws {
        let session = try Self.reconnect(to: Self.registrations([1, 2, 4], pid: 1, process: "Other"))
        #expect(session.status.registrationMark == nil)
        let said =
            "b mark cleared: it was of pid \(getpid()) (Shop), now pid 1 (Other), which numbers its registrations afresh"
        #expect(session.actions.entries.contains { $0.kind == .note && $0.text == said }, "\(session.actions.entries)")
        #expect(session.status.message == said)
        let names = session.render(size: Size(width: 120, height: 30), glyphs: .ascii).plainText
        #expect(!names.contains("SINCE"), "\(names)")
    }

    @Test("attaching from the overview to another process clears the mark and says so")
    func clearedByOverviewAttach() throws {
        var traces: [Int32: String] = [:]
        for pid: Int32 in [10, 20] {
            let path = temporaryPath("mark-overview-\(pid)")
            var bytes: [UInt8] = []
            TraceEncoder.encode(Self.registrations([1, 2, 3], pid: pid, process: "app\(pid)"), into: &bytes)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            traces[pid] = path
        }
        defer { traces.values.forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let host = ProcessOverviewTests.ListedHost(traces: traces)
        host.set([10, 20])
        let session = DashboardSession(source: .fixed([]))
        session.overview = ProcessOverview(host: host)
        defer { session.overview?.stop() }
        session.overview?.refresh()
        session.attach(pid: 10, now: CPUMeter.wallNanoseconds())
        #expect(session.pollUntil { session.model.header?.pid == 10 && session.model.registrations.count == 3 })
        _ = session.run(on: InMemoryTerminal(size: Size(width: 120, height: 30), keys: [.char("b"), .char("q")]))
        try #require(session.status.registrationMark?.live.count == 3)
        session.attach(pid: 20, now: CPUMeter.wallNanoseconds())
        #expect(session.pollUntil { session.model.header?.pid == 20 })
        #expect(session.status.registrationMark == nil)
        #expect(
            session.status.message
                == "b mark cleared: it was of pid 10 (app10), now pid 20 (app20), which numbers its registrations afresh"
        )
    }
}
