import Foundation
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyTraceViewer
import NotifyTUI
import NotifyWire
import Testing

/// The process overview (view 0): one row per inspectable process of a host, each the fold of its
/// own stream; Enter attaches the views, Esc comes back. The host here lists what a test sets and
/// opens recorded traces.
struct ProcessOverviewTests {
    final class ListedHost: InspectionHost, @unchecked Sendable {  // `processes` is guarded by `lock`
        private let lock = Lock()
        private var processes: [InspectableProcess] = []
        let traces: [Int32: String]

        init(traces: [Int32: String]) { self.traces = traces }

        var name: String { "listed" }

        func set(_ pids: [Int32], name: String? = nil) {
            lock.withLock {
                processes = pids.map {
                    InspectableProcess(
                        pid: $0, socketPath: "/d/\($0).sock", name: name ?? "app\($0)", uptimeSeconds: 2)
                }
            }
        }

        func inspectableProcesses() throws(HostFailure) -> HostListing {
            lock.withLock { HostListing(directory: "/d", processes: processes) }
        }

        func open(_ process: InspectableProcess) throws(HostFailure) -> TraceReader {
            do {
                return try TraceReader.open(file: traces[process.pid] ?? "/nonexistent")
            } catch {
                throw HostFailure("\(error)")
            }
        }

        func close() {}
    }

    /// Two recorded processes: pid 10 with the fixture, pid 20 with the fixture and 5 more registrations.
    static func host() throws -> (ListedHost, cleanup: () -> Void) {
        var traces: [Int32: String] = [:]
        for (pid, extra) in [(Int32(10), 0), (20, 5)] {
            let path = temporaryPath("overview-\(pid)")
            var bytes: [UInt8] = []
            TraceEncoder.encode(Fixture.events(registrations: extra), into: &bytes)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            traces[pid] = path
        }
        let host = ListedHost(traces: traces)
        host.set([10, 20])
        return (host, { for path in traces.values { try? FileManager.default.removeItem(atPath: path) } })
    }

    /// The fold of the fixture, as the process's own views would show it.
    static func fold(registrations extra: Int) -> InspectorState {
        var model = InspectorState()
        model.apply(Fixture.events(registrations: extra))
        return model
    }

    static func session(_ host: ListedHost) -> DashboardSession {
        var view = ViewState()
        view.showsOverview = true
        let session = DashboardSession(source: .fixed([]), view: view)
        session.overview = ProcessOverview(host: host)
        return session
    }

    static func rows(_ session: DashboardSession) -> [OverviewRow] { session.data.overview ?? [] }

    static func complete(_ session: DashboardSession) -> Bool {
        let rows = rows(session)
        return rows.count == 2 && rows.allSatisfy { $0.ended != nil }
    }

    @Test("each process's row is the fold of its own stream: the figures its own views show")
    func rowsAreEachProcesssFold() throws {
        let (host, cleanup) = try Self.host()
        defer { cleanup() }
        let session = Self.session(host)
        defer { session.overview?.stop() }
        #expect(session.pollUntil { Self.complete(session) })
        let rows = Self.rows(session)
        #expect(rows.map(\.pid) == [10, 20])
        #expect(rows.map(\.name) == ["app10", "app20"])
        for (row, extra) in zip(rows, [0, 5]) {
            let own = Self.fold(registrations: extra)
            #expect(row.summary.totals.posts == own.totals.posts)
            #expect(row.summary.totals.deliveries == own.totals.deliveries)
            #expect(row.summary.liveRegistrations == own.liveRegistrations)
            #expect(row.summary.openFindings == own.overview.openFindings)
        }
        #expect(rows[1].summary.liveRegistrations == rows[0].summary.liveRegistrations + 5)
    }

    @Test("the overview screen lists every process with its figures, under a Processes tab")
    func screenListsProcesses() throws {
        let (host, cleanup) = try Self.host()
        defer { cleanup() }
        let session = Self.session(host)
        defer { session.overview?.stop() }
        #expect(session.pollUntil { Self.complete(session) })
        let lines = session.render(size: Size(width: 150, height: 20), glyphs: .ascii).lines
        let own = Self.fold(registrations: 5)
        #expect(lines[3].hasPrefix(" 0 Processes (2) "))
        #expect(lines[4].hasPrefix("Processes"))
        #expect(lines[5].contains("PID") && lines[5].contains("POSTS/S") && lines[5].contains("OBS"))
        let row = try #require(lines.first { $0.contains("app20") })
        let cells = row.split(separator: " ").map(String.init)
        #expect(cells.first == "20")
        #expect(cells.contains(Format.count(own.totals.posts)))
        #expect(cells.contains(String(own.liveRegistrations)))
        #expect(lines.contains { $0.contains("app10") })
    }

    @Test("Enter attaches the views to the selected process; Esc returns to the overview with every summary kept")
    func enterAttachesAndEscReturns() throws {
        let (host, cleanup) = try Self.host()
        defer { cleanup() }
        let session = Self.session(host)
        defer { session.overview?.stop() }
        #expect(session.pollUntil { Self.complete(session) })
        let before = Self.rows(session).map(\.summary.totals)
        let size = Size(width: 150, height: 20)
        // The second row (pid 20), then Enter.
        let terminal = InMemoryTerminal(size: size, keys: [.down, .enter, .char("1")])
        _ = session.run(on: terminal, maxFrames: 4)
        #expect(session.attachedProcess?.pid == 20)
        #expect(!session.view.showsOverview)
        #expect(session.model.liveRegistrations == Self.fold(registrations: 5).liveRegistrations)
        #expect(terminal.frames.last?.lines[4].hasPrefix("Names") == true)
        let back = InMemoryTerminal(size: size, keys: [.escape])
        _ = session.run(on: back, maxFrames: 2)
        #expect(session.view.showsOverview)
        let rows = Self.rows(session)
        #expect(rows.map(\.summary.totals) == before)
        #expect(rows.map(\.isAttached) == [false, true])
        // Attaching the other process hands pid 20's fold back to the overview.
        session.attach(pid: 10, now: CPUMeter.wallNanoseconds())
        #expect(Self.rows(session).map(\.summary.totals) == before)
        #expect(session.model.liveRegistrations == Self.fold(registrations: 0).liveRegistrations)
    }

    @Test("processes appear and vanish as the host lists them")
    func rowsFollowTheListing() throws {
        let (host, cleanup) = try Self.host()
        defer { cleanup() }
        host.set([10])
        let session = Self.session(host)
        defer { session.overview?.stop() }
        #expect(session.pollUntil { Self.rows(session).map(\.pid) == [10] })
        host.set([10, 20])
        #expect(session.pollUntil { Self.rows(session).map(\.pid) == [10, 20] })
        host.set([20])
        #expect(session.pollUntil { Self.rows(session).map(\.pid) == [20] })
    }

    @Test("0 shows the overview only where there is one; Esc at a view's top goes there")
    func keys() {
        var state = ViewState()
        #expect(state.handle(.char("0"), context: FrameInfo()).redraw)
        #expect(!state.showsOverview && state.notice?.isError == true)
        var context = FrameInfo()
        context.hasOverview = true
        #expect(state.handle(.char("0"), context: context).redraw)
        #expect(state.showsOverview)
        #expect(state.handle(.char("3"), context: context).redraw)
        #expect(!state.showsOverview && state.view == .threads)
        #expect(state.handle(.escape, context: context).redraw)
        #expect(state.showsOverview && state.view == .threads)
        let rows = FrameInfo(rowKeys: [.process(7), .process(9)], selectedIndex: 1)
        #expect(state.handle(.enter, context: rows).command == .attach(9))
        #expect(!state.showsOverview)
    }

    @Test("--json prints the overview's processes with raw figures")
    func json() throws {
        let (host, cleanup) = try Self.host()
        defer { cleanup() }
        let session = Self.session(host)
        defer { session.overview?.stop() }
        #expect(session.pollUntil { Self.complete(session) })
        let line = BatchJSON.overviewLine(session.data, view: session.view, iteration: 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["view"] as? String == "processes")
        let processes = try #require(object["processes"] as? [[String: Any]])
        #expect(processes.compactMap { $0["pid"] as? Int } == [10, 20])
        let own = Self.fold(registrations: 5)
        #expect(processes[1]["posts"] as? Int == Int(own.totals.posts))
        #expect(processes[1]["observers"] as? Int == own.liveRegistrations)
    }

    /// A host whose listings wait until the test lets them go (at most 30 s).
    final class SlowHost: InspectionHost, @unchecked Sendable {  // `timedOut` is guarded by `lock`
        private let lock = Lock()
        private let release = DispatchSemaphore(value: 0)
        private var timedOut = false
        var name: String { "slow" }
        var didTimeOut: Bool { lock.withLock { timedOut } }
        func letGo() { release.signal() }

        func inspectableProcesses() throws(HostFailure) -> HostListing {
            if release.wait(timeout: .now() + 30) == .timedOut { lock.withLock { timedOut = true } }
            release.signal()  // later listings go through
            return HostListing(directory: "/slow", processes: [])
        }

        func open(_ process: InspectableProcess) throws(HostFailure) -> TraceReader { throw HostFailure("none") }
        func close() {}
    }

    @Test("the look at the host runs off the run loop's thread: a slow listing never holds a poll")
    func slowListingDoesNotHoldThePoll() {
        let host = SlowHost()
        let overview = ProcessOverview(host: host)
        overview.poll(now: CPUMeter.wallNanoseconds())
        // Had the poll listed the host itself, it would have returned only once the listing timed out.
        host.letGo()
        #expect(!host.didTimeOut)
    }

    @Test("the views follow the attached process to its restart, never to a sibling that ran alongside it")
    func followsARestartNotASibling() throws {
        let (host, cleanup) = try Self.host()
        defer { cleanup() }
        host.set([10], name: "shop")
        let session = Self.session(host)
        defer { session.overview?.stop() }
        #expect(session.pollUntil { Self.rows(session).count == 1 })
        session.attach(pid: 10, now: CPUMeter.wallNanoseconds())
        // The recorded stream ends at the end of its file: the process "exited".
        #expect(session.pollUntil { session.ended })
        session.poll(now: CPUMeter.wallNanoseconds())
        host.set([10, 20], name: "shop")
        #expect(session.pollUntil { session.attachedProcess?.pid == 20 })
        // The session folds the restarted process's stream from its start.
        let restarted = Self.fold(registrations: 5)
        #expect(session.pollUntil { session.model.totals.events == restarted.totals.events })
        #expect(session.model.liveRegistrations == restarted.liveRegistrations)

        let (siblings, cleanupSiblings) = try Self.host()
        defer { cleanupSiblings() }
        siblings.set([10, 20], name: "shop")
        let other = Self.session(siblings)
        defer { other.overview?.stop() }
        #expect(other.pollUntil { Self.complete(other) })
        other.attach(pid: 10, now: CPUMeter.wallNanoseconds())
        let listings = other.overview?.listings ?? 0
        #expect(other.pollUntil { other.ended && (other.overview?.listings ?? 0) >= listings + 2 })
        #expect(other.attachedProcess?.pid == 10)
    }
}
