import Foundation
import NotifyModel
import NotifySession
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import Testing

/// `notifytop explain` on a name posted often and observed by many registered later: the report
/// says which posts it covers, sums up the later registrations in one line, and a recording
/// folded with a larger window explains every post.
struct ExplainWindowReportTests {
    /// 40 posts of "tick", each delivered to #1 (1 µs); then 12 registrations, 3.5 µs after the last post.
    private func recording() throws -> String {
        var script = TraceScript(
            header: TraceHeader(
                pid: 7, process: "App", center: "default", clockMono: 0, clockWall: 0, producer: "test"),
            time: TraceScript.start)
        script.register(1, "tick", site: 101)
        for _ in 0..<40 {
            script.advance(1_000_000)
            let post = script.post("tick", matched: 1, site: 200)
            script.deliver(post, to: 1, name: "tick")
        }
        script.advance(2_500)
        for id: UInt64 in 2...13 { script.register(id, "tick", site: 100 + id) }
        let path = temporaryPath("explain-window", suffix: ".ndjson")
        var bytes: [UInt8] = []
        TraceEncoder.encode(script.events, into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("text: the window is stated, later registrations are one line per post, not twelve")
    func text() throws {
        let path = try recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = ExplanationReport(try RecordingFold(path: path).model.explain(name: "tick"))
        #expect(report.leftOlderPosts)
        let lines = report.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("note: the last 32 posts of \"tick\" are kept; 8 older ones are not explained"))
        #expect(lines.filter { $0.hasPrefix("post seq") }.count == 32)
        #expect(!lines.contains { $0.contains("registered-after") })
        let later = lines.filter { $0.hasPrefix("  later ") }
        #expect(later.count == 32)
        #expect(later.last == "  later  12 registered later, the first 3.5 µs after the post", "\(later.last ?? "")")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let last = try #require((json["posts"] as? [[String: Any]])?.last)
        #expect((last["registered_later"] as? [String: Any])?["count"] as? Int == 12)
    }

    @Test("a recording folded with a larger window explains every post and says nothing is left out")
    func widened() throws {
        let path = try recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = InspectorConfiguration()
        configuration.explainPostsPerName = 1 << 20
        let report = ExplanationReport(
            try RecordingFold(path: path, configuration: configuration).model.explain(name: "tick"))
        #expect(!report.leftOlderPosts)
        #expect(report.text.split(separator: "\n").filter { $0.hasPrefix("post seq") }.count == 40)
    }
}
