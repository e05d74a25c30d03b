import Foundation
import NotifyModel
import NotifySession
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import Testing

/// `notifytop explain`: a recording folded, one name's posts explained as text and as JSON.
struct ExplanationReportTests {
    /// A recording where registration 1 receives the post, 2 filters on another object and 3
    /// observes a name one letter off.
    private func recording() throws -> String {
        var script = TraceScript(
            header: TraceHeader(
                pid: 7, process: "App", center: "default", clockMono: 0, clockWall: 0, producer: "test"),
            time: TraceScript.start)
        script.register(1, "cartDidChange", site: 101)
        script.register(2, "cartDidChange", object: 50, site: 102)
        script.register(3, "cartDidChang", site: 103)
        let post = script.post("cartDidChange", matched: 1, site: 200)
        script.deliver(post, to: 1, name: "cartDidChange")
        let path = temporaryPath("explain", suffix: ".ndjson")
        var bytes: [UInt8] = []
        TraceEncoder.encode(script.events, into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("JSON: each post with seq, name, object, thread, site and the registrations considered")
    func json() throws {
        let path = try recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fold = try RecordingFold(path: path)
        let report = ExplanationReport(fold.model.explain(name: "cartDidChange"))
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let posts = try #require(document["posts"] as? [[String: Any]])
        #expect(posts.count == 1)
        let post = try #require(posts.first)
        #expect(post["name"] as? String == "cartDidChange")
        #expect(post["site"] as? String == "App/File.swift:200")
        #expect(post["object"] is NSNull)
        #expect(post["thread"] as? Int == 1)
        // The post's fields and the explanation's in one object, as before the report post type was shared.
        #expect(
            Set(post.keys) == [
                "seq", "post_id", "name", "object", "thread", "thread_name", "site", "time_ns", "depth",
                "parent_post_id", "considered", "notes",
            ])
        let considered = try #require(post["considered"] as? [[String: Any]])
        #expect(considered.map { $0["reason"] as? String } == ["delivered", "object-differs", "name-differs"])
        #expect(considered.map { $0["delivered"] as? Bool } == [true, false, false])
        #expect(considered.map { $0["site"] as? String }.last == "App/File.swift:103")
        #expect(considered.allSatisfy { ($0["detail"] as? String)?.isEmpty == false })
    }

    @Test("Text: one line per registration, ran or missed, with its reason")
    func text() throws {
        let path = try recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = ExplanationReport(try RecordingFold(path: path).model.explain(name: "cartDidChange")).text
        #expect(text.contains("ran    #1 \"cartDidChange\" at App/File.swift:101  delivered"))
        #expect(text.contains("missed #2 \"cartDidChange\" at App/File.swift:102  object-differs"))
        #expect(text.contains("missed #3 \"cartDidChang\" at App/File.swift:103  name-differs"))
    }

    @Test("--object and --post keep only the matching posts")
    func keep() throws {
        let path = try recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let explanation = try RecordingFold(path: path).model.explain(name: "cartDidChange")
        var report = ExplanationReport(explanation)
        report.keep(object: nil, post: explanation.posts[0].post.seq)
        #expect(report.text.contains("post seq"))
        report.keep(object: 50, post: nil)
        #expect(report.text.contains("no post to explain"))
    }
}
