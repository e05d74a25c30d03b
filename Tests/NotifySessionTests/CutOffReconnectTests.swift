import Foundation
import NotifyKit
import NotifyModel
@testable import NotifySession
@testable import NotifySystem
import NotifyTUITestSupport
import NotifyTestSupport
@testable import NotifyTraceApp
import NotifyTraceViewer
import NotifyTUI
import NotifyWire
import Testing

private let ping = Notification.Name("cutoff.session.ping")

/// A viewer the app cuts off for falling behind (here: its reading paused past the cut-off, as a
/// stopped notifytop's would be) says why, counts what it missed, and connects again to the same,
/// still running process for a fresh snapshot. Nothing calls the process exited or crashed.
@Suite("Cut-off reconnect", .serialized, .timeLimit(.minutes(10)))
struct CutOffReconnectTests {
    /// Copies the app's stream to the session's socket while not paused: a paused relay leaves the
    /// app's socket full, as a stopped viewer does.
    final class Relay: @unchecked Sendable {  // `paused` and `done` are locked; the sockets belong to the thread
        let paused = LockedValue(false)
        let done = LockedValue(false)
        let reader: TraceReader

        init(connectingTo path: String) throws(TraceError) {
            let app = try UnixSocket.connect(to: path)
            var fds: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
                throw .system("socketpair", errno)
            }
            reader = TraceReader(source: .socket(UnixSocket(descriptor: fds[0])), origin: path)
            let out = fds[1]
            let thread = Thread { [paused, done] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !done.withLock({ $0 }) {
                    if paused.withLock({ $0 }) {
                        usleep(1_000)
                        continue
                    }
                    guard let count = buffer.withUnsafeMutableBytes({ app.read(into: $0, timeoutMilliseconds: 10) })
                    else { break }
                    var written = 0
                    while written < count {
                        let n = buffer[written..<count].withUnsafeBytes { write(out, $0.baseAddress, $0.count) }
                        guard n > 0 else { break }
                        written += n
                    }
                }
                app.close()
                close(out)
            }
            thread.start()
        }
    }

    @Test(
        "a viewer paused past the cut-off shows the cause, counts the loss, and reattaches to the same pid for a fresh snapshot"
    )
    func pausedViewerReconnects() throws {
        let directory = temporaryPath("cutoff")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let center = NotifyCenter()
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let inspector = try NotifyInspector.start(
            center: center, others: .none, directory: SocketDirectory(path: directory), ringCapacity: 1 << 16,
            limits: ViewerLimits(viewerBufferBytes: 64 * 1024, stalledViewerSeconds: 0.3),
            accept: { $0.acceptConnection() })
        defer { inspector.stop() }
        let name = try #require(
            SocketDirectory(path: directory).inspectableProcesses().first { $0.pid == getpid() }?.name)
        let running = LockedValue(true)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            while running.withLock({ $0 }) {
                for _ in 0..<20 { center.post(name: ping) }
                usleep(500)
            }
        }
        defer {
            running.withLock { $0 = false }
            group.wait()
        }
        let first = try Relay(connectingTo: inspector.socketPath)
        var relays = [first]
        defer { relays.forEach { $0.done.withLock { $0 = true } } }
        var connected: [String] = []
        let session = DashboardSession(source: .live(LiveFeed(reader: first.reader)))
        session.reattacher = Reattacher(
            match: .processName(name), directory: SocketDirectory(path: directory), lastPid: getpid(),
            connect: { path throws(TraceError) in
                connected.append(path)
                let relay = try Relay(connectingTo: path)
                relays.append(relay)
                return relay.reader
            })
        let clock = PollClock(step: 10_000_000)
        func poll(until done: () -> Bool) -> Bool { session.pollUntil(clock: clock, seconds: 30, done) }
        #expect(poll { session.model.totals.posts > 200 })

        first.paused.withLock { $0 = true }
        // Cut off, and past the time a cut-off viewer has to take its last lines.
        #expect(poll { inspector.viewerCount == 0 })
        usleep(200_000)
        first.paused.withLock { $0 = false }
        #expect(poll { connected.count == 1 && session.status.mode == .live && session.model.header != nil })

        let texts = session.actions.entries.map(\.text)
        let ended = try #require(texts.first { $0.hasPrefix("stream ended: ") }, "\(texts)")
        #expect(ended.hasPrefix("stream ended: cut off by the process for reading too slowly: "), "\(ended)")
        #expect(ended.contains(" s behind, ") && ended.contains(" events lost, ") && ended.hasSuffix(" queued"))
        #expect(texts.contains("reconnecting to pid \(getpid()) for a fresh snapshot"), "\(texts)")
        #expect(!texts.contains { $0.contains("crashed") || $0.contains("exited") }, "\(texts)")
        let loss = try #require(session.actions.entries.first { $0.kind == .loss && $0.text.contains("cut off") })
        #expect(connected == [directory + "/\(getpid()).sock"], "the same process, through its own socket")
        #expect(session.model.header?.pid == getpid())
        // The fresh model goes on counting what the old stream lost.
        let lost = try #require(UInt64(loss.text.prefix { $0 != " " }))
        #expect(lost > 0)
        #expect(session.model.eventsLost >= lost)
        #expect(session.actions.entries.contains { $0.kind == .loss && $0.text.hasSuffix(" events lost (cut-off)") })
        #expect(session.data.model.overview.eventsLost >= lost)
        let reconnected = try #require(texts.first { $0.hasPrefix("reconnected to pid \(getpid())") })
        #expect(reconnected.contains("counting the \(session.model.eventsLost) events lost before"), "\(reconnected)")
        // And reads the same process on.
        let posts = session.model.totals.posts
        #expect(poll { session.model.totals.posts > posts + 100 })

        session.view = ViewState(view: .log)
        let screen = session.render(size: Size(width: 160, height: 40), glyphs: .ascii).plainText
        #expect(screen.contains("events lost: cut off by the process"), "\(screen)")
    }

    /// A host whose processes each answer first with a stream the producer cut off, then with a
    /// whole one.
    final class CuttingHost: InspectionHost, @unchecked Sendable {  // `opens` is guarded by `lock`
        private let lock = Lock()
        private var opens: [Int32: Int] = [:]
        let cut: String
        let whole: String

        init(cut: String, whole: String) {
            self.cut = cut
            self.whole = whole
        }

        var name: String { "cutting" }

        func opened(_ pid: Int32) -> Int { lock.withLock { opens[pid] ?? 0 } }

        func inspectableProcesses() throws(HostFailure) -> HostListing {
            HostListing(
                directory: "/d",
                processes: [10, 20].map {
                    InspectableProcess(pid: $0, socketPath: "/d/\($0).sock", name: "app\($0)", uptimeSeconds: 2)
                })
        }

        func open(_ process: InspectableProcess) throws(HostFailure) -> TraceReader {
            let count = lock.withLock {
                opens[process.pid, default: 0] += 1
                return opens[process.pid] ?? 0
            }
            do {
                return try TraceReader.open(file: count == 1 ? cut : whole)
            } catch {
                throw HostFailure("\(error)")
            }
        }

        func close() {}
    }

    @Test("attached from the overview, a cut-off stream shows its cause and the process is opened again, loss counted")
    func overviewReopensCutOffProcesses() throws {
        let events = Fixture.events()
        let seq = events.compactMap(\.seq).max() ?? 0
        let time = events.compactMap(\.timestamp).max() ?? 0
        let cutEvents =
            events + [
                .gap(TraceGap(seq: seq + 40, timestamp: time + 1, count: 40, reason: .viewerBehind)),
                .end(
                    TraceEnd(
                        seq: seq + 41, timestamp: time + 1, reason: .disconnected, behindNanoseconds: 5_000_000_000,
                        missedEvents: 40, queuedBytes: 3 << 20)),
            ]
        let directory =
            temporaryPath("cutoff-overview")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func write(_ events: [TraceEvent], _ name: String) throws -> String {
            var bytes: [UInt8] = []
            TraceEncoder.encode(events, into: &bytes)
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
            return directory + "/" + name
        }
        let host = CuttingHost(cut: try write(cutEvents, "cut.ndjson"), whole: try write(events, "whole.ndjson"))
        var view = ViewState()
        view.showsOverview = true
        let session = DashboardSession(source: .fixed([]), view: view)
        session.overview = ProcessOverview(host: host)
        defer { session.overview?.stop() }
        session.overview?.refresh()
        session.attach(pid: 10, now: CPUMeter.wallNanoseconds())
        func poll(until done: () -> Bool) -> Bool { session.pollUntil(seconds: 30, done) }
        #expect(
            poll {
                host.opened(10) == 2 && session.actions.entries.contains { $0.text.hasPrefix("reconnected to pid 10 ") }
            })
        #expect(poll { session.model.totals.events >= UInt64(events.count) })
        let texts = session.actions.entries.map(\.text)
        #expect(
            texts.contains(
                "stream ended: cut off by the process for reading too slowly: 5.0 s behind, 40 events lost, 3.0 MiB queued"
            ), "\(texts)")
        #expect(texts.contains("reconnecting to pid 10 for a fresh snapshot"), "\(texts)")
        #expect(texts.contains { $0.hasPrefix("reconnected to pid 10 ") }, "\(texts)")
        #expect(session.model.eventsLost == 40, "the fresh model counts what the cut-off stream lost")
        // The process not attached is opened again too, its fresh fold counting the loss; until its
        // second stream is read to the end, its row still says it is reconnecting.
        #expect(
            poll {
                host.opened(20) == 2
                    && session.data.overview?.first { $0.pid == 20 }?.ended == "recording cut off: no end line"
            })
        let other = try #require(session.data.overview?.first { $0.pid == 20 })
        #expect(other.summary.eventsLost == 40)
        #expect(other.summary.totals.posts == session.model.totals.posts, "\(other.summary.totals)")
        #expect(other.ended == "recording cut off: no end line", "the second stream, read to its end")
    }
}

/// A stream that stops without an end line: the process is asked whether it is gone before
/// anything calls it killed or crashed.
@Suite(.timeLimit(.minutes(10)))
struct BareCloseTests {
    /// A live reader on `events` whose connection closes without an end line.
    static func closedStream(_ events: [TraceEvent]) throws -> TraceReader {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        try #require(bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == bytes.count)
        close(fds[1])
        return TraceReader(source: .socket(UnixSocket(descriptor: fds[0])), origin: "/d/app.sock")
    }

    @Test(
        "a connection closed without an end line by a process that still runs is connected to again, not called crashed"
    )
    func stillRunning() throws {
        let session = DashboardSession(source: .live(LiveFeed(reader: try Self.closedStream(Fixture.events()))))
        var connects = 0
        session.reattacher = Reattacher(
            match: .socket("/d/app.sock"), lastPid: getpid(),
            connect: { _ throws(TraceError) in
                connects += 1
                guard let reader = try? Self.closedStream(Array(Fixture.events().prefix(10))) else {
                    throw .invalid("socketpair")
                }
                return reader
            }, followsRestarts: false)
        #expect(session.pollUntil(clock: PollClock(step: 300_000_000)) { connects == 1 })
        let texts = session.actions.entries.map(\.text)
        #expect(
            texts.contains("stream ended: connection closed without an end line by pid \(getpid()), which still runs"),
            "\(texts)")
        #expect(texts.contains { $0.hasPrefix("reconnected to pid \(getpid()) ") }, "\(texts)")
        #expect(!texts.contains { $0.contains("crashed") || $0.contains("exited") }, "\(texts)")
    }

    @Test("a connection closed without an end line by a process that is gone says so, and waits for a restart")
    func gone() throws {
        let dead = try ChildProcess.reapedPid()
        let session = DashboardSession(source: .live(LiveFeed(reader: try Self.closedStream(Fixture.events()))))
        session.reattacher = Reattacher(
            match: .socket("/d/app.sock"), lastPid: dead,
            connect: { _ throws(TraceError) in throw .invalid("connection refused") })
        #expect(session.pollUntil(clock: PollClock(step: 300_000_000)) { session.status.mode != .live })
        #expect(
            session.status.mode
                == .ended(
                    "process \(dead) gone without an end line (killed or crashed); waiting for /d/app.sock to restart")
        )
    }
}

extension BareCloseTests {
    @Test("a process that cut the viewer off and exits before it reconnects is then said to have exited")
    func exitsBeforeReconnect() throws {
        let child = try ChildProcess.start(["/bin/sleep", "30"])
        defer { child.terminate(graceMilliseconds: 0) }
        let events = Fixture.events()
        let end = TraceEnd(
            seq: (events.compactMap(\.seq).max() ?? 0) + 1, timestamp: (events.compactMap(\.timestamp).max() ?? 0) + 1,
            reason: .disconnected, behindNanoseconds: 5_000_000_000, missedEvents: 0, queuedBytes: 1024)
        let session = DashboardSession(source: .live(LiveFeed(reader: try Self.closedStream(events + [.end(end)]))))
        session.reattacher = Reattacher(
            match: .socket("/d/app.sock"), lastPid: child.pid,
            connect: { _ throws(TraceError) in throw .invalid("connection refused") }, followsRestarts: false)
        let cause = "cut off by the process for reading too slowly: 5.0 s behind, 0 events lost, 1.0 KiB queued"
        #expect(
            session.pollUntil(clock: PollClock(step: 300_000_000)) {
                session.status.mode == .ended("\(cause); reconnecting to pid \(child.pid)")
            })
        child.terminate(graceMilliseconds: 0)  // SIGKILL: SIGTERM may be blocked in a child of the test process
        #expect(session.pollUntil(clock: PollClock(step: 300_000_000)) { session.isEnded })
        #expect(session.status.mode == .ended("\(cause); process \(child.pid) has exited since"))
    }
}
