import Foundation
import NotifyTUITestSupport
import NotifyWire
import NotifyModel
import NotifySession
import NotifyTUI
import Testing

/// `--json --view names,threads,leaks`: one document per frame with a key per view, rows that a
/// script can compare between a live session and its replay field by field.
struct BatchJSONViewsTests {
    private func object(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("several views make one document with a key per view, each with the rows its single frame lists")
    func severalViews() throws {
        let data = Fixture.data()
        let line = BatchJSON.line(data, view: ViewState(view: .names), more: [.threads, .leaks], iteration: 3)
        #expect(!line.contains("\n"))
        let frame = try object(line)
        #expect(frame["iteration"] as? Int == 3)
        #expect(frame["summary"] != nil)
        let views = try #require(frame["views"] as? [String: Any])
        #expect(Set(views.keys) == ["names", "threads", "leaks"])
        for (name, view) in [("names", ViewID.names), ("threads", .threads), ("leaks", .leaks)] {
            let single = try object(BatchJSON.line(data, view: ViewState(view: view), iteration: 3))
            let section = try #require(views[name] as? [String: Any])
            #expect(NSDictionary(dictionary: section)["rows"] as? NSArray == single["rows"] as? NSArray, "\(name)")
        }
    }

    @Test("one view keeps the single-view frame: view, rows, and no views key")
    func singleViewUnchanged() throws {
        let frame = try object(BatchJSON.line(Fixture.data(), view: ViewState(view: .leaks), more: [], iteration: 1))
        #expect(frame["view"] as? String == "leaks")
        #expect(frame["rows"] is [[String: Any]])
        #expect(frame["views"] == nil)
    }

    @Test("threads carry per-thread totals with the thread id; deliveries name their thread's id")
    func threadTotals() throws {
        let data = Fixture.data()
        let frame = try object(BatchJSON.line(data, view: ViewState(view: .threads), iteration: 1))
        let threads = try #require(frame["threads"] as? [[String: Any]])
        #expect(threads.count == data.model.threads.count)
        for (item, thread) in zip(threads, data.model.threads) {
            #expect(item["id"] as? Int == Int(thread.id))
            #expect(item["deliveries"] as? Int == Int(thread.deliveries))
            #expect(item["posts"] as? Int == Int(thread.posts))
            #expect(item["handler_ns"] as? Int == Int(thread.timeInHandlers))
        }
        let rows = try #require(frame["rows"] as? [[String: Any]])
        #expect(!rows.isEmpty && rows.allSatisfy { $0["thread_id"] is Int })
    }

    @Test("leak rows carry rule, name and site as separate fields, and the rule's count")
    func leakFields() throws {
        let data = Fixture.data()
        let frame = try object(BatchJSON.line(data, view: ViewState(view: .leaks), iteration: 1))
        let rows = try #require(frame["rows"] as? [[String: Any]])
        #expect(rows.count == data.model.findings.count)
        for finding in data.model.findings {
            let row = try #require(rows.first { $0["key"] as? String == finding.key.description })
            #expect(row["rule"] as? String == finding.rule.code)
            #expect(row["name"] as? String == finding.evidence.name)
            #expect(row["site"] as? String == finding.evidence.callsite?.description)
            #expect(row["count"] as? Int == Int(finding.evidence.count))
        }
        #expect(rows.contains { $0["name"] is String && $0["site"] is String })
    }
}
