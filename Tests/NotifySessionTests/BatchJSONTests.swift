import ArgumentParser
import Foundation
import NotifyCommandLine
import NotifyTUITestSupport
import NotifyWire
import NotifyModel
import NotifySession
import NotifyTUI
import Testing

/// `--batch --json`: one decodable object per frame, listing what the view lists.
struct BatchJSONTests {
    private func object(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    private func rows(_ line: String) throws -> [[String: Any]] {
        try #require(try object(line)["rows"] as? [[String: Any]])
    }

    @Test("a frame is one line of JSON with the summary the header shows")
    func summary() throws {
        let data = Fixture.data()
        let line = BatchJSON.line(data, view: ViewState(view: .names), iteration: 2)
        #expect(!line.contains("\n"))
        let frame = try object(line)
        #expect(frame["iteration"] as? Int == 2)
        #expect(frame["view"] as? String == "names")
        let summary = try #require(frame["summary"] as? [String: Any])
        #expect(summary["posts"] as? Int == Int(data.model.totals.posts))
        #expect(summary["deliveries"] as? Int == Int(data.model.totals.deliveries))
        #expect(summary["observers"] as? Int == data.model.liveRegistrations)
        let warnings = try #require(summary["warnings"] as? [String: Int])
        #expect(Set(warnings.keys) == ["info", "warning", "error"])
        let open = data.model.findings.filter { $0.isOpen && $0.severity == .warning }.count
        #expect(warnings["warning"] == open)
    }

    @Test("keys are sorted, so equal frames give equal bytes")
    func sortedKeys() throws {
        let line = BatchJSON.line(Fixture.data(), view: ViewState(view: .names), iteration: 1)
        let keys = ["\"iteration\"", "\"rows\"", "\"stream\"", "\"stream_time_ns\"", "\"summary\"", "\"view\""]
        let positions = keys.map { line.range(of: $0)!.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test("rows follow the view's filter and sort, in the order the screen lists them")
    func filterAndSort() throws {
        var view = try #require(
            ViewRows.sorting(.names, byColumn: "POSTS", descending: true).map { table -> ViewState in
                var state = ViewState(view: .names)
                state.table = table
                return state
            })
        let all = try rows(BatchJSON.line(Fixture.data(), view: view, iteration: 1)).map { $0["posts"] as! Int }
        #expect(all.count >= 3)
        #expect(all == all.sorted(by: >))
        let screen = Dashboard.render(Fixture.data(), view: view, size: Size(width: 120, height: 40), glyphs: .unicode)
            .info
        let listed = try rows(BatchJSON.line(Fixture.data(), view: view, iteration: 1))
            .map { RowKey.name($0["name"] as! String) }
        #expect(listed == screen.rowKeys)
        view.table.filter = "cart"
        let names = try rows(BatchJSON.line(Fixture.data(), view: view, iteration: 1)).map { $0["name"] as! String }
        #expect(names == ["cartDidChange"])
    }

    @Test("names with quotes, backslashes and CJK survive the encoder")
    func escaping() throws {
        var events = Fixture.events()
        let last = events.last!.timestamp! + 1
        events.append(
            .posted(
                TracePost(
                    seq: 9_000, timestamp: last, thread: 1, postID: 900, name: "say \"hi\"\\\n",
                    object: nil, hasUserInfo: false, matched: 0, depth: 1, parentPostID: 0,
                    callsite: 4)))
        let line = BatchJSON.line(Fixture.data(events), view: ViewState(view: .names), iteration: 1)
        let names = try rows(line).map { $0["name"] as! String }
        #expect(names.contains("say \"hi\"\\\n"))
        #expect(names.contains("通知センター"))
    }

    @Test("every view encodes its own rows")
    func everyView() throws {
        let data = Fixture.data()
        let observers = try rows(BatchJSON.line(data, view: ViewState(view: .observers), iteration: 1))
        #expect(Set(observers.map { $0["id"] as! Int }) == Set(data.model.registrations.map { Int($0.id) }))
        let deliveries = try rows(BatchJSON.line(data, view: ViewState(view: .threads), iteration: 1))
        #expect(deliveries.count == Int(data.model.totals.deliveries))
        let leaks = try rows(BatchJSON.line(data, view: ViewState(view: .leaks), iteration: 1))
        #expect(Set(leaks.map { $0["key"] as! String }) == Set(data.model.findings.map(\.key.description)))
        #expect(!leaks.isEmpty)
        let events = try rows(BatchJSON.line(data, view: ViewState(view: .events), iteration: 1))
        #expect(events.last?["seq"] as? Int == Int(data.tail.events.last!.seq!))
    }

    @Test("sorting is refused for unknown columns and for logs")
    func sortingRefused() {
        #expect(ViewRows.sorting(.names, byColumn: "nope") == nil)
        #expect(ViewRows.sorting(.threads, byColumn: "dur") == nil)
        #expect(ViewRows.sortableColumns(of: .events).isEmpty)
        #expect(ViewRows.sortableColumns(of: .names).contains("deliv"))
    }

    @Test("--sort takes a column only some streams show, and refuses an unknown one in one line")
    func sortByAColumnNotShownYet() throws {
        for argument in ["center", "pend", "drop:asc"] {
            let options = try NotifyTopOptions.parse(["--view", "observers", "--sort", argument])
            let state = try #require(options.initialViewState, "\(argument)")
            #expect(state.table.sortColumn == nil)
            #expect(state.table.requestedSort?.title == argument.split(separator: ":")[0].lowercased())
        }
        let names = try NotifyTopOptions.parse(["--sort", "since"])
        #expect(names.initialViewState?.table.requestedSort == RequestedSort(title: "since"))
        #expect(throws: (any Error).self) { try NotifyTopOptions.parse(["--view", "names", "--sort", "center"]) }
        do {
            _ = try NotifyTopOptions.parse(["--view", "observers", "--sort", "centre"])
            Issue.record("an unknown column was accepted")
        } catch {
            let message = NotifyTopOptions.message(for: error)
            #expect(!message.contains("\n"), "\(message)")
            #expect(message.contains("cannot sort the observers view by \"centre\""), "\(message)")
            #expect(message.contains("center"), "\(message)")
        }
    }

    @Test("options start the view with the filter and sort asked for")
    func initialViewState() throws {
        var options = try NotifyTopOptions.parse(["--view", "names", "--filter", "user", "--sort", "deliv:asc"])
        let state = try #require(options.initialViewState)
        #expect(state.table.filter == "user")
        #expect(state.table.sortColumn == 3)
        #expect(state.table.inverted)
        options.sort = SortOption(argument: "nope")
        #expect(options.initialViewState == nil)
        #expect(throws: (any Error).self) { try NotifyTopOptions.parse(["--sort", "nope"]) }
    }
}
