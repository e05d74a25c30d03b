import Foundation
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTUI
import NotifyTestSupport
import NotifyTraceViewer
import Testing

/// The overview of a host that attaches only on request (`--foundation` without `--pid`): its
/// processes are listed without a stream, their figures unknown ("-") and their state said; Enter
/// opens the one chosen, and going back leaves its figures in its row.
@Suite(.timeLimit(.minutes(10)))
struct OnDemandOverviewTests {
    /// ``ProcessOverviewTests/ListedHost`` that opens nothing until asked, counting what it opens.
    final class RequestHost: OnDemandHost, @unchecked Sendable {  // `opened` is guarded by `lock`
        let listed: ProcessOverviewTests.ListedHost
        private let lock = Lock()
        private var opened: [Int32] = []
        var name: String { "on request" }
        var openedPids: [Int32] { lock.withLock { opened } }

        init(_ listed: ProcessOverviewTests.ListedHost) { self.listed = listed }

        func inspectableProcesses() throws(HostFailure) -> HostListing { try listed.inspectableProcesses() }

        func open(_ process: InspectableProcess) throws(HostFailure) -> TraceReader {
            lock.withLock { opened.append(process.pid) }
            if process.pid == 20 { throw HostFailure("pid 20 cannot be probed: stripped: cannot attach") }
            return try listed.open(process)
        }

        func notAttachedState(of pid: Int32) -> (threads: Int?, state: String)? {
            (3, "not attached: symbols present, 3 threads")
        }

        var emptyMessage: String { "nothing to probe yet" }

        func close() {}
    }

    @Test("processes are listed without a stream; Enter opens one off the run loop, a refusal is one line")
    func listsThenAttachesOnRequest() throws {
        let (listed, cleanup) = try ProcessOverviewTests.host()
        defer { cleanup() }
        let host = RequestHost(listed)
        let session = ProcessOverviewTests.session(listed)
        session.overview = ProcessOverview(host: host)
        defer { session.overview?.stop() }
        listed.set([])
        session.overview?.refresh()
        let empty = session.render(size: Size(width: 150, height: 20), glyphs: .ascii).plainText
        #expect(empty.contains("nothing to probe yet") && !empty.contains("NOTIFYTOP=1"), "\(empty)")
        listed.set([10, 20])
        #expect(session.pollUntil { ProcessOverviewTests.rows(session).count == 2 })
        // Several listings later, still nothing opened.
        for _ in 0..<3 {
            session.overview?.refresh()
            session.poll(now: CPUMeter.wallNanoseconds())
        }
        #expect(host.openedPids.isEmpty)
        let rows = ProcessOverviewTests.rows(session)
        #expect(rows.allSatisfy { $0.notAttached == "not attached: symbols present, 3 threads" && $0.threads == 3 })
        let frame = session.render(size: Size(width: 150, height: 20), glyphs: .ascii).plainText
        let line = frame.split(separator: "\n").first { $0.contains("app10") } ?? ""
        #expect(
            line.contains("-      -     -    -    -    -     -"),
            "figures of a process not attached are unknown: \(line)")
        #expect(line.hasSuffix("not attached: symbols present, 3 threads"), "\(line)")
        let json = BatchJSON.overviewLine(session.data, view: session.view, iteration: 1)
        #expect(json.contains(#""not_attached":"not attached: symbols present, 3 threads""#), "\(json)")
        #expect(json.contains(#""threads":3"#))
        #expect(!json.contains(#""posts":"#), "no figure is claimed for a process not attached: \(json)")

        // Enter: the opening runs off the run loop; the screen says so and goes on.
        session.attach(pid: 20, now: CPUMeter.wallNanoseconds())
        #expect(session.status.message == "attaching to pid 20…")
        #expect(session.pollUntil { session.status.message?.contains("cannot be probed") == true })
        #expect(session.attachedProcess == nil)
        #expect(session.view.showsOverview)
        #expect(session.status.message == "pid 20 cannot be probed: stripped: cannot attach")

        session.attach(pid: 10, now: CPUMeter.wallNanoseconds())
        #expect(session.pollUntil { session.attachedProcess?.pid == 10 })
        #expect(host.openedPids == [20, 10])
        #expect(!session.view.showsOverview, "the views show the process once its stream is open")
        #expect(session.status.message == "attached to pid 10")
        #expect(session.pollUntil { session.model.overview.totals.posts > 0 })
        let posts = session.model.overview.totals.posts
        let attachedRow = ProcessOverviewTests.rows(session).first { $0.pid == 10 }
        #expect(attachedRow?.notAttached == nil && attachedRow?.isAttached == true)
        #expect(attachedRow?.summary.totals.posts == posts)
        #expect(ProcessOverviewTests.rows(session).first { $0.pid == 20 }?.notAttached != nil)
    }
}
