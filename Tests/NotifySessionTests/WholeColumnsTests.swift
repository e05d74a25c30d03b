import Foundation
import NotifyModel
import NotifySession
import NotifyTUI
import NotifyTUITestSupport
import NotifyWire
import Testing

/// Every overview column whole at 120 columns, PEND and DROP kept in Observers, the overview
/// header's rate sparklines on the rows' scale, and the single-process JSON's viewer count.
struct WholeColumnsTests {
    @Test("the single-process --json summary says the viewer count, and leaves it out when unknown")
    func summaryViewers() throws {
        var events = Fixture.events()
        let last = events.compactMap(\.timestamp).max() ?? Fixture.base
        events.append(.tick(TraceTick(seq: 10_000, timestamp: last + 1_000_000, viewers: 3)))
        let line = BatchJSON.line(Fixture.data(events), view: ViewState(view: .names), iteration: 1)
        let frame = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let summary = try #require(frame["summary"] as? [String: Any])
        #expect(summary["viewers"] as? Int == 3, "\(line.prefix(400))")
        let unknown = BatchJSON.line(Fixture.data(), view: ViewState(view: .names), iteration: 1)
        #expect(!unknown.contains(#""viewers""#))
    }

    /// 50 posts in every rate bucket for 20 seconds: a steady rate.
    static func steadyOverview() -> InspectorOverview {
        var model = InspectorState()
        var events: [TraceEvent] = [
            .header(
                TraceHeader(
                    pid: 1, process: "app", center: "default", clockMono: Fixture.base, clockWall: 0, producer: "test"))
        ]
        for step in UInt64(0)..<1_000 {
            events.append(
                .posted(
                    TracePost(
                        seq: step + 1, timestamp: Fixture.base + step * 20_000_000, thread: 1, postID: step + 1,
                        name: "tick", object: nil, hasUserInfo: false, matched: 0, depth: 1, parentPostID: 0,
                        callsite: 0)))
        }
        events.append(.tick(TraceTick(seq: 2_000, timestamp: Fixture.base + 20_000_000_000, viewers: 2)))
        model.apply(events)
        return model.overview
    }

    /// The overview of a live and an ended process, `width` columns wide: its lines.
    static func overview(width: Int) -> [String] {
        let summary = steadyOverview()
        var data = DashboardData(model: InspectorState(), status: SessionStatus(mode: .live, source: "x"))
        data.overview = [
            OverviewRow(
                pid: 4_194_301, name: "notify-demo", center: "notify-demo", uptimeSeconds: 43_000, summary: summary,
                isAttached: true),
            OverviewRow(pid: 77, name: "app", center: "default", summary: summary, ended: "closed"),
        ]
        var view = ViewState()
        view.showsOverview = true
        return Dashboard.render(data, view: view, size: Size(width: width, height: 12), glyphs: .unicode).0.lines
    }

    static let overviewTitles = [
        "PID", "PROCESS", "CENTER", "UPTIME", "POSTS/S", "DELIV/S", "POSTS", "DELIV", "OBS", "ERR", "WARN", "INFO",
        "LOST", "VIEWERS", "STATE",
    ]

    @Test("at 120 columns every overview title and figure reads whole, the rates keep their sparklines")
    func overviewAt120() throws {
        let lines = Self.overview(width: 120)
        let header = try #require(lines.first { $0.contains("PROCESS") }, "\(lines.joined(separator: "\n"))")
        let words = header.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "▲▼")) }
        for title in Self.overviewTitles { #expect(words.contains(title), "\(title): \(header)") }
        #expect(!header.contains("…"))
        let live = try #require(lines.first { $0.contains("notify-demo") })
        #expect(live.contains("4194301") && live.contains("11h56m"), "\(live)")
        #expect(live.contains(" notify-demo  notify-demo "), "a center as long as the demo's reads whole: \(live)")
        #expect(live.hasSuffix(" live") || live.contains(" live "), "\(live)")
        #expect(!live.contains("…"), "\(live)")
        #expect(live.contains("▅▅▅▅▅"), "the rates keep a sparkline: \(live)")
        let viewers = try #require(header.range(of: "VIEWERS"))
        let start = live.index(
            live.startIndex, offsetBy: header.distance(from: header.startIndex, to: viewers.lowerBound))
        let cell = live[start...].prefix(7)
        #expect(cell.trimmingCharacters(in: .whitespaces) == "2", "\(live)")
    }

    @Test("at 100 columns the sparklines and CENTER yield; every other title and figure reads whole")
    func overviewAt100() throws {
        let lines = Self.overview(width: 100)
        let header = try #require(lines.first { $0.contains("PROCESS") }, "\(lines.joined(separator: "\n"))")
        let words = header.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "▲▼")) }
        for title in Self.overviewTitles where title != "CENTER" {
            #expect(words.contains(title), "\(title): \(header)")
        }
        #expect(!words.contains("CENTER") && !header.contains("…"), "\(header)")
        let live = try #require(lines.first { $0.contains("notify-demo") })
        #expect(!live.contains("▅") && !live.contains("…") && live.contains(" live"), "\(live)")
        // Between the two, CENTER stays while the sparklines shrink.
        let wider = Self.overview(width: 116)
        #expect(
            wider.contains { $0.contains("CENTER") }
                && wider.contains { $0.contains("notify-demo") && $0.contains("▅▅") },
            "\(wider.joined(separator: "\n"))")
    }

    @Test("the overview header's rate sparklines read a steady total as steady, on the rows' scale")
    func overviewHeaderScale() {
        let lines = Self.overview(width: 150)
        let rates = lines[1]
        #expect(rates.contains("posts/s") && rates.contains("deliv/s"), "\(rates)")
        #expect(!rates.contains("████"), "steady posts are not a full bar: \(rates)")
        #expect(rates.contains("▅▅▅"), "\(rates)")
    }

    /// The typed-message fixture and two callsites at the file-name lengths the demo has.
    static func observerEvents() -> [TraceEvent] {
        var events = TypedMessageViewTests.events()
        var seq: UInt64 = 50_000
        var time = (events.compactMap(\.timestamp).max() ?? Fixture.base) + 1_000_000
        events.append(.callsite(TraceCallsite(id: 90, file: "NotifyDemo/Services/DocumentService.swift", line: 18)))
        events.append(.callsite(TraceCallsite(id: 91, file: "NotifyDemo/Views/ThemePreviewRenderer.swift", line: 123)))
        for id in UInt64(90)..<93 {
            seq += 1
            time += 1_000_000
            events.append(
                .registered(
                    TraceRegistration(
                        seq: seq, timestamp: time, thread: 1, id: id, name: "DocumentDidSaveNotification\(id)",
                        kind: .block, observer: nil, object: nil, target: .dispatchQueue,
                        targetLabel: "com.example.documents", callsite: id == 92 ? 91 : 90, preexisting: false,
                        capturesObserverStrongly: false)))
        }
        return events
    }

    @Test("at 120 columns Observers keeps PEND and DROP beside a whole SITE; free text yields")
    func observersKeepFigures() throws {
        let data = Fixture.data(Self.observerEvents())
        for grouping in ObserverGrouping.allCases {
            var view = ViewState(view: .observers)
            view.grouping = grouping
            let lines = Dashboard.render(data, view: view, size: Size(width: 120, height: 40), glyphs: .unicode).0.lines
            let header = try #require(lines.first { $0.contains("SITE") }, "\(lines.joined(separator: "\n"))")
            let words = header.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "▲▼")) }
            // Grouped by observer or thread, the group and its `12 registrations` keep their width first.
            if grouping == .name {
                #expect(words.contains("PEND") && words.contains("DROP"), "\(grouping): \(header)")
            }
            let site = try #require(lines.first { $0.contains("#90") })
            #expect(site.contains("DocumentService.swift:18"), "\(grouping): \(site)")
            let longest = try #require(lines.first { $0.contains("#92") })
            #expect(longest.contains("ThemePreviewRenderer.swift:123"), "\(grouping): \(longest)")
            if grouping == .name {
                let queued = try #require(lines.first { $0.contains("#21") })
                #expect(queued.contains(" 1/1 "), "\(grouping): \(queued)")
            }
        }
        // The observers of one name (a drill-down from Names): a flat list, PEND and DROP kept.
        var view = ViewState(view: .observers)
        view.drill[.observers] = [.name(TypedMessageViewTests.cart)]
        let lines = Dashboard.render(data, view: view, size: Size(width: 120, height: 40), glyphs: .unicode).0.lines
        let header = try #require(lines.first { $0.contains("SITE") }, "\(lines.joined(separator: "\n"))")
        #expect(header.contains(" PEND ") && header.hasSuffix("DROP"), "\(header)")
        let queued = try #require(lines.first { $0.contains("#21") })
        #expect(queued.contains(" 1/1 "), "\(queued)")
    }

    @Test("a state too wide for its column loses whole words: `cancelled 12s`, then `cancelled`")
    func stateLosesWords() {
        #expect(CellShortening.words.apply("cancelled 12s ago", width: 13, ellipsis: "…") == "cancelled 12s")
        #expect(CellShortening.words.apply("cancelled 12s ago", width: 11, ellipsis: "…") == "cancelled")
        #expect(CellShortening.words.apply("cancelled", width: 6, ellipsis: "…") == "cance…")
        #expect(CellShortening.words.apply("live", width: 11, ellipsis: "…") == "live")
    }

    @Test("a column hidden at this width (`.fixed(0)`) takes no gap, so the next one still fits")
    func hiddenColumnTakesNoGap() {
        #expect(TableWidget.columnWidths([.fixed(3), .fixed(0), .fixed(3)], total: 7) == [3, 0, 3])
    }
}
