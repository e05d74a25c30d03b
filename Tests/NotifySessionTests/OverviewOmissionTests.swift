import Foundation
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTUI
import NotifyTestSupport
import NotifyTraceViewer
import Testing

/// The overview never hides what it leaves out: processes beyond its limit are counted on screen,
/// in the Log view and in JSON, and a socket that never sends a trace is marked, not shown live.
@Suite(.timeLimit(.minutes(10)))
struct OverviewOmissionTests {
    @Test("processes beyond the limit are counted on screen, in the Log view and in JSON")
    func processesBeyondTheLimitAreCounted() throws {
        let (host, cleanup) = try ProcessOverviewTests.host()
        defer { cleanup() }
        var view = ViewState()
        view.showsOverview = true
        let session = DashboardSession(source: .fixed([]), view: view)
        session.overview = ProcessOverview(host: host, limit: 1)
        defer { session.overview?.stop() }
        #expect(
            session.pollUntil {
                session.data.overview?.count == 1 && session.data.overviewNotShown == 1
            })
        let frame = session.render(size: Size(width: 120, height: 30), glyphs: .unicode).plainText
        #expect(frame.contains("1 more process not shown: notifytop follows at most 1"), "\(frame)")
        #expect(session.actions.entries.contains { $0.text.contains("1 more process not shown") })
        let json = BatchJSON.overviewLine(session.data, view: session.view, iteration: 1)
        #expect(json.contains(#""not_shown":{"count":1,"limit":1,"reason":"limit"}"#), "\(json)")
        host.set([10])
        #expect(session.pollUntil { session.data.overviewNotShown == 0 })
        #expect(!BatchJSON.overviewLine(session.data, view: session.view, iteration: 2).contains("not_shown"))
    }

    /// A host whose one process has a socket that accepts and then never sends a byte.
    final class SilentHost: InspectionHost, @unchecked Sendable {
        let listener: UnixSocket
        let path: String
        var name: String { "silent" }

        init() throws {
            path = temporaryPath("silent", suffix: ".sock")
            listener = try UnixSocket.listen(at: path)
        }

        func inspectableProcesses() throws(HostFailure) -> HostListing {
            HostListing(
                directory: "/d",
                processes: [InspectableProcess(pid: 33, socketPath: path, name: "mute", uptimeSeconds: 1)])
        }

        func open(_ process: InspectableProcess) throws(HostFailure) -> TraceReader {
            do { return try TraceReader.connect(socketPath: process.socketPath) } catch {
                throw HostFailure("\(error)")
            }
        }

        func close() { unlink(path) }
    }

    @Test("a socket that never sends a trace is marked as no notifytop stream once its silence is long")
    func aSilentSocketIsMarked() throws {
        let host = try SilentHost()
        defer { host.close() }
        let overview = ProcessOverview(host: host)
        defer { overview.stop() }
        let start: UInt64 = 1_000_000_000
        var rows: [OverviewRow] = []
        for _ in 0..<3_000 where rows.isEmpty {
            overview.poll(now: start)
            rows = overview.rows(attached: InspectorState(), ended: nil)
            usleep(10_000)
        }
        #expect(rows.first?.ended == nil, "not judged before its silence is long")
        overview.poll(now: start + ProcessOverview.silenceLimit)
        let marked = overview.rows(attached: InspectorState(), ended: nil).first?.ended
        #expect(marked == "not a notifytop stream: nothing received in 5 s", "\(String(describing: marked))")
    }
}
