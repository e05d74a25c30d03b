import Foundation
import NotifyModel
@testable import NotifySession
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyTUI
import NotifyWire
import Testing

/// The overview's STATE of a stream that sends lines notifytop cannot decode: their count, and
/// never a healthy `live`.
struct SkippedLinesOverviewTests {
    @Test("a live stream of a header and nothing decodable says undecodable with its count, in STATE and JSON")
    func garbageStreamIsNotHealthy() throws {
        var header = InspectorState()
        header.apply(Array(Fixture.events().prefix(1)))
        let whole = ProcessOverviewTests.fold(registrations: 0).overview
        let rows = [
            OverviewRow(pid: 7, name: "garbage", summary: header.overview, skippedLines: 12),
            OverviewRow(pid: 8, name: "mixed", summary: whole, skippedLines: 1),
            OverviewRow(pid: 9, name: "fine", summary: whole),
        ]
        #expect(rows.map(\.state) == ["undecodable: 12 lines skipped", "live, 1 line skipped", "live"])
        var data = DashboardData(model: InspectorState(), tail: EventTail(), status: SessionStatus(mode: .live))
        data.overview = rows
        var view = ViewState()
        view.showsOverview = true
        let (canvas, _) = Dashboard.render(data, view: view, size: Size(width: 150, height: 12), glyphs: .ascii)
        let garbage = try #require(canvas.lines.first { $0.contains("garbage") })
        #expect(garbage.contains("undecodable: 12 lines skipped") && !garbage.hasSuffix(" live"), "\(garbage)")
        let line = BatchJSON.overviewLine(data, view: view, iteration: 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let processes = try #require(object["processes"] as? [[String: Any]])
        #expect(processes.map { $0["skipped_lines"] as? Int } == [12, 1, nil])
    }

    @Test("the overview counts the lines a process's stream sent that could not be decoded")
    func overviewCountsSkippedLines() throws {
        let path = temporaryPath("overview-garbage")
        var bytes: [UInt8] = []
        TraceEncoder.encode(Array(Fixture.events().prefix(1)), into: &bytes)
        bytes += Array("garbage\n{\"k\":\n\u{1}\u{2}\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let host = ProcessOverviewTests.ListedHost(traces: [30: path])
        host.set([30])
        let session = ProcessOverviewTests.session(host)
        defer { session.overview?.stop() }
        #expect(session.pollUntil { ProcessOverviewTests.rows(session).first?.ended != nil })
        let row = try #require(ProcessOverviewTests.rows(session).first)
        #expect(row.skippedLines == 3)
        #expect(row.state.hasSuffix("; 3 lines skipped"), "\(row.state)")
    }
}
