import NotifyModel
import NotifyTUI
import NotifyTUITestSupport
import NotifyWire
import Testing

/// Overview sparklines that read steady traffic as steady, and an Observers SITE that keeps its
/// file name and line at 120 columns.
struct ReadableOverviewTests {
    @Test("a steady rate is a flat line at half height, not a full bar; a burst over it reaches the top")
    func steadyRateReadsSteady() {
        let steady = Sparkline.rateText(Array(repeating: 200, count: 30), width: 8, floor: 10, glyphs: .unicode)
        #expect(Set(steady) == ["▅"], "\(steady)")
        var bursty = [Double](repeating: 20, count: 30)
        bursty[27] = 400
        let burst = Sparkline.rateText(bursty, width: 8, floor: 10, glyphs: .unicode)
        #expect(Array(burst)[5] == "█")
        #expect(Array(burst)[0] == "▁" || Array(burst)[0] == "▂", "the calm baseline stays low: \(burst)")
        let trickle = Sparkline.rateText(Array(repeating: 1, count: 30), width: 8, floor: 10, glyphs: .unicode)
        #expect(Set(trickle) == ["▂"], "a trickle under the floor stays low: \(trickle)")
        #expect(Sparkline.rateText([0, 0, 0], width: 4, glyphs: .unicode) == "▁▁▁▁")
        // The older scale for comparison: steady traffic is a full bar there.
        #expect(Set(Sparkline.text(Array(repeating: 200, count: 30), width: 8, glyphs: .unicode)) == ["█"])
    }

    @Test("the overview's rate sparklines use the steady scale")
    func overviewUsesSteadyScale() {
        var model = InspectorState()
        var seq: UInt64 = 0
        var events: [TraceEvent] = [
            .header(
                TraceHeader(
                    pid: 1, process: "app", center: "default", clockMono: Fixture.base, clockWall: 0, producer: "test"))
        ]
        // 50 posts in every rate bucket for 20 seconds.
        for step in 0..<1_000 {
            seq += 1
            events.append(
                .posted(
                    TracePost(
                        seq: seq, timestamp: Fixture.base + UInt64(step) * 20_000_000, thread: 1, postID: seq,
                        name: "tick", object: nil, hasUserInfo: false, matched: 0, depth: 1, parentPostID: 0,
                        callsite: 0)))
        }
        model.apply(events)
        #expect(model.overview.postHistory.suffix(8).allSatisfy { $0 == 50 })
        var data = DashboardData(model: InspectorState(), status: SessionStatus(mode: .live, source: "x"))
        data.overview = [OverviewRow(pid: 1, name: "app", summary: model.overview)]
        var view = ViewState()
        view.showsOverview = true
        let (canvas, _) = Dashboard.render(data, view: view, size: Size(width: 150, height: 12), glyphs: .unicode)
        let row = canvas.lines.first { $0.contains(" app ") } ?? ""
        #expect(!row.contains("████"), "steady posts are not drawn as a full bar: \(row)")
        #expect(row.contains("▅▅▅"), "\(row)")
    }

    @Test("at 120 columns SITE keeps the file name and line; the name and observer columns yield")
    func siteKeepsFileAndLine() {
        var events = Fixture.events()
        var seq: UInt64 = 5_000
        var time = (events.compactMap(\.timestamp).max() ?? Fixture.base) + 1_000_000
        events.append(
            .callsite(TraceCallsite(id: 90, file: "NotifyDemo/Services/DocumentService.swift", line: 18)))
        for id in UInt64(90)..<93 {
            seq += 1
            time += 1_000_000
            events.append(
                .registered(
                    TraceRegistration(
                        seq: seq, timestamp: time, thread: 1, id: id, name: "DocumentDidSaveNotification\(id)",
                        kind: .block, observer: nil, object: nil, target: .dispatchQueue,
                        targetLabel: "com.example.documents", callsite: 90, preexisting: false,
                        capturesObserverStrongly: false)))
        }
        let data = Fixture.data(events)
        for grouping in ObserverGrouping.allCases {
            var view = ViewState(view: .observers)
            view.grouping = grouping
            let (canvas, _) = Dashboard.render(data, view: view, size: Size(width: 120, height: 40), glyphs: .unicode)
            let rows = canvas.lines.filter { $0.contains("#9") && ($0.contains("#90") || $0.contains("#91")) }
            #expect(!rows.isEmpty)
            for row in rows {
                #expect(row.contains("DocumentService.swift:18"), "\(grouping): \(row)")
            }
        }
    }
}
