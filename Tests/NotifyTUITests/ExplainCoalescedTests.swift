import NotifyModel
import NotifyTUI
import NotifyTUITestSupport
import NotifyWire
import Testing

/// The `x` pane on a post a notification queue merged enqueues into: one `coalesced` row per
/// call site of the merged enqueues, with their count.
struct ExplainCoalescedTests {
    /// Registration #1 observes "progress"; post 1 (seq 5) is delivered, and a queue merged two
    /// enqueues from Export.swift:301 and one from Export.swift:302 into it; post 2 (seq 9) merged none.
    /// With `older`, a 1.4 trace: the queue only says it coalesced two enqueues before post 1.
    static func data(older: Bool = false) -> DashboardData {
        let base: UInt64 = 1_000_000_000
        let t = base + 5_000_000
        let merges: [TraceEvent] = [
            .merged(
                TraceQueueMerge(
                    seq: 7, timestamp: t, thread: 1, queueID: 1, postID: 1, callsite: 20, count: 2,
                    enqueuedAt: t - 3_000_000)),
            .merged(
                TraceQueueMerge(
                    seq: 8, timestamp: t, thread: 1, queueID: 1, postID: 1, callsite: 21, count: 1,
                    enqueuedAt: t - 40_000)),
        ]
        let coalesce = TraceEvent.queue(
            TraceQueueActivity(
                seq: 3, timestamp: t - 1_000, thread: 1, queueID: 1, action: .coalesced, name: "progress", style: nil,
                count: 2, pending: 1))
        let events: [TraceEvent] =
            [
                .header(
                    TraceHeader(
                        version: TraceFormatVersion(major: 1, minor: older ? 4 : 5), pid: 7, process: "Export",
                        center: "default", clockMono: base, clockWall: 1_700_000_000_000_000_000,
                        producer: "NotifyKit"))
            ] + Self.events(base: base, t: t, before: older ? [coalesce] : [], after: older ? [] : merges)
        var model = InspectorState()
        var tail = EventTail()
        for event in events {
            model.apply(event)
            tail.append(event)
        }
        return DashboardData(model: model, tail: tail, status: SessionStatus(mode: .live))
    }

    private static func events(base: UInt64, t: UInt64, before: [TraceEvent], after: [TraceEvent]) -> [TraceEvent] {
        [
            .thread(TraceThread(seq: 1, timestamp: base, id: 1, systemID: 7, name: "main", isMain: true)),
            .callsite(TraceCallsite(id: 10, file: "App/Export.swift", line: 12)),
            .callsite(TraceCallsite(id: 20, file: "App/Export.swift", line: 301)),
            .callsite(TraceCallsite(id: 21, file: "App/Export.swift", line: 302)),
            .registered(
                TraceRegistration(
                    seq: 4, timestamp: base + 1_000, thread: 1, id: 1, name: "progress", kind: .block, observer: nil,
                    object: nil, target: .posting, targetLabel: nil, callsite: 10, preexisting: false,
                    capturesObserverStrongly: false)),
        ] + before + [
            post(5, id: 1, at: t),
            .delivered(
                TraceDelivery(
                    seq: 6, timestamp: t + 2_000, thread: 1, postID: 1, registration: 1, name: "progress",
                    postingThread: 1, target: .posting, start: t + 1_000, duration: 1_000, wait: 0, depth: 1)),
        ] + after + [post(9, id: 2, at: t + 10_000_000)]
    }

    static func post(_ seq: UInt64, id: UInt64, at time: UInt64) -> TraceEvent {
        .posted(
            TracePost(
                seq: seq, timestamp: time, thread: 1, postID: id, name: "progress", object: nil, hasUserInfo: false,
                matched: 1, depth: 1, parentPostID: 0, callsite: 10))
    }

    private func explain(_ seq: UInt64, older: Bool = false) -> (Canvas, FrameInfo, ViewState) {
        let data = Self.data(older: older)
        let glyphs = Glyphs.unicode
        let size = Size(width: 140, height: 30)
        var view = ViewState(view: .events)
        var frame = Dashboard.render(data, view: view, size: size, glyphs: glyphs)
        guard let index = frame.info.rowKeys.firstIndex(of: .event(seq: seq, registration: nil)) else {
            Issue.record("no Events row for seq \(seq)")
            return (frame.0, frame.1, view)
        }
        view.table.selectedIndex = index
        view.table.selectedKey = frame.info.rowKeys[index]
        view.table.follow = false
        frame = Dashboard.render(data, view: view, size: size, glyphs: glyphs)
        _ = view.handle(.char("x"), context: frame.info)
        frame = Dashboard.render(data, view: view, size: size, glyphs: glyphs)
        return (frame.0, frame.1, view)
    }

    @Test("x on a post with merged enqueues shows each site with its count, above the verdicts")
    func coalescedRows() {
        let (canvas, info, view) = explain(5)
        #expect(view.path.last == .explainEvent(5))
        let lines = canvas.lines
        let coalesced = lines.filter { $0.contains("coalesced") && $0.contains("merged enqueues") }
        #expect(coalesced.count == 2)
        #expect(
            coalesced.first.map {
                $0.contains("Export.swift:301") && $0.contains("2 of 3 merged enqueues")
            } == true)
        #expect(
            coalesced.last.map {
                $0.contains("Export.swift:302") && $0.contains("1 of 3 merged enqueues")
            } == true)
        #expect(info.rowKeys == [.line(0), .line(1), .event(seq: 5, registration: 1)])
        let (quiet, quietInfo, plain) = explain(9)
        #expect(plain.path.last == .explainEvent(9))
        #expect(!quiet.lines.contains { $0.contains("coalesced") })
        #expect(quietInfo.rowKeys == [.event(seq: 9, registration: 1)])
    }

    @Test("the coalesced rows filter like every row and save with Ctrl-S's content")
    func filterAndSave() {
        var (_, _, view) = explain(5)
        view.table.filter = "coalesced"
        let content = Dashboard.content(Self.data(), view: view, glyphs: .ascii)
        let text = content.rows.map { $0.joined(separator: " ") }
        #expect(text.count == 2)
        #expect(text.allSatisfy { $0.contains("coalesced") && !$0.contains("µs") })
        #expect(text.first?.contains("the first 3.0ms before the post") == true)
        #expect(text.last?.contains("the first 40us before the post") == true)
    }

    @Test("an older trace's post says how many enqueues were merged, and that the trace lacks their sites")
    func olderTrace() {
        let (canvas, info, _) = explain(5, older: true)
        let coalesced = canvas.lines.filter { $0.contains("coalesced") && $0.contains("merged enqueues") }
        #expect(coalesced.count == 1)
        #expect(coalesced.first.map { $0.contains(" ? ") && $0.contains("2 merged enqueues of this name") } == true)
        #expect(info.rowKeys == [.line(0), .event(seq: 5, registration: 1)])
    }

    @Test("under the table, the selected verdict's whole detail, which the DETAIL column cuts")
    func selectedDetailStrip() {
        let (canvas, info, _) = explain(5)
        #expect(info.rowKeys[info.selectedIndex] == .line(0))
        let lines = canvas.lines
        guard let heading = lines.firstIndex(where: { $0.hasPrefix("coalesced (post 5):") }) else {
            Issue.record("no detail strip for the selected row")
            return
        }
        let strip = lines[(heading + 1)...].prefix(4).map { $0.split(separator: " ").joined(separator: " ") }
        #expect(strip.joined(separator: " ").hasPrefix("2 of 3 merged enqueues; the first 3.0ms before the post"))
    }
}
