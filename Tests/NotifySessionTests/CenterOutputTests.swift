import Foundation
import NotifyModel
import NotifySession
import NotifyTUI
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import Testing

/// What `--batch --json` and `notifytop explain` say of a stream of several centers: each
/// observer's and post's center by label, and nothing of centers for a stream of one.
struct CenterOutputTests {
    /// Registration 1 on `default`, 2 on `sync`; one post to `default`, delivered to 1.
    private func script(centers: [String]?) -> TraceScript {
        var script =
            centers.map { TraceScript(centers: $0) }
            ?? TraceScript(
                header: TraceHeader(
                    pid: 7, process: "App", center: "default", clockMono: 0, clockWall: 0, producer: "test"),
                time: TraceScript.start)
        let several = centers != nil
        script.register(1, "cartDidChange", site: 101, center: several ? 0 : nil)
        script.register(2, "cartDidChange", site: 102, center: several ? 1 : nil)
        let post = script.post("cartDidChange", matched: 1, site: 200, center: several ? 0 : nil)
        script.deliver(post, to: 1, name: "cartDidChange")
        return script
    }

    private func object(_ json: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test("--batch --json: observers carry their center's label and the summary lists the centers")
    func batchObservers() throws {
        let data = Fixture.data(script(centers: ["default", "sync"]).events)
        let frame = try object(BatchJSON.line(data, view: ViewState(view: .observers), iteration: 1))
        let rows = try #require(frame["rows"] as? [[String: Any]])
        #expect(rows.map { $0["id"] as? Int } == [1, 2])
        #expect(rows.map { $0["center"] as? String } == ["default", "sync"])
        let summary = try #require(frame["summary"] as? [String: Any])
        #expect(summary["centers"] as? [String] == ["default", "sync"])
    }

    @Test("--batch --json of one center: no center key anywhere")
    func batchOneCenter() throws {
        let line = BatchJSON.line(
            Fixture.data(script(centers: nil).events), view: ViewState(view: .observers), iteration: 1)
        #expect(!line.contains("\"center"))
        #expect(try #require(object(line)["rows"] as? [[String: Any]]).count == 2)
    }

    @Test("explain's JSON: the post's center, and each considered registration's; other-center named")
    func explainJSON() throws {
        var model = InspectorState()
        model.apply(script(centers: ["default", "sync"]).events)
        let report = ExplanationReport(model.explain(name: "cartDidChange"))
        let post = try #require((try object(report.json)["posts"] as? [[String: Any]])?.first)
        #expect(post["center"] as? String == "default")
        let considered = try #require(post["considered"] as? [[String: Any]])
        #expect(considered.map { $0["center"] as? String } == ["default", "sync"])
        #expect(considered.map { $0["reason"] as? String } == ["delivered", "other-center"])
        #expect(
            report.text.contains(#"missed #2 "cartDidChange" on center "sync" at App/File.swift:102  other-center"#))
        #expect(report.text.contains(#"post seq 5 "cartDidChange" to center "default" with no object"#))
    }

    @Test("explain of one center: no center key, no other-center")
    func explainOneCenter() {
        var model = InspectorState()
        model.apply(script(centers: nil).events)
        let report = ExplanationReport(model.explain(name: "cartDidChange"))
        #expect(!report.json.contains("center"))
        #expect(!report.text.contains("center"))
    }

    @Test("explain --cascade: each post of the tree says its center, a nested one its own")
    func cascade() throws {
        let (script, parent, _) = TraceScript.crossCenterCascade()
        var model = InspectorState()
        model.apply(script.events)
        let report = CascadeReport(try #require(model.cascade(post: parent)))
        #expect(report.text.contains(#""cartDidChange" to center "default" (post 1"#), "\(report.text)")
        #expect(report.text.contains(#""syncNeeded" to center "sync" (post 2"#), "\(report.text)")
        #expect(report.json.contains(#""center":"sync""#))
    }
}
