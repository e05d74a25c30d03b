import NotifyModel
import NotifyWire

/// View 5: the raw event tail, newest last, one line per event as the trace says it. Rows about a
/// registration open it with Enter.
enum EventsView {
    struct Row: Sendable {
        var event: TraceEvent
        var seq: UInt64
        var time: String
        var thread: String
        var kind: String
        var detail: String
        var key: RowKey
        var style: Style
    }

    static func row(_ event: TraceEvent, _ data: DashboardData) -> Row {
        let seq = event.seq ?? 0
        var thread = ""
        var detail = ""
        var registration: UInt64?
        var style = Style.normal
        switch event {
        case .thread(let value): thread = data.threadName(value.id); detail = "\(value.name) tid \(value.systemID)"
        case .registered(let value):
            thread = data.threadName(value.thread)
            detail =
                "#\(value.id) \(value.name ?? "*") \(value.kind.rawValue) on \(value.target.rawValue)"
                + (value.preexisting ? " (preexisting)" : "") + (value.capturesObserverStrongly ? " strong-self" : "")
                + centerText(value.center, data)
            registration = value.id
        case .posted(let value):
            thread = data.threadName(value.thread)
            detail =
                "\(value.name)" + (value.message.map { " message·\($0 == .mainActor ? "main" : "async")" } ?? "")
                + " post \(value.postID) matched \(value.matched)"
                + (value.depth > 1 ? " depth \(value.depth)" : "") + centerText(value.center, data)
            if value.matched == 0 { style = .dim }
        case .delivered(let value):
            thread = data.threadName(value.thread)
            detail = "\(value.name) post \(value.postID) → #\(value.registration) \(Format.duration(value.duration))"
            registration = value.registration
        case .removed(let value):
            thread = data.threadName(value.thread)
            detail =
                "#\(value.registration) \(value.reason.rawValue)"
                + (value.callsite.map { " at \(data.model.callsite($0))" } ?? "")
            registration = value.registration
        case .objectDead(let value):
            thread = data.threadName(value.thread)
            detail = "#\(value.registration) object filter" + (value.object.map { " obj#\($0)" } ?? "") + " found dead"
            registration = value.registration
        case .merged(let value):
            thread = data.threadName(value.thread)
            detail =
                "queue \(value.queueID) merged ×\(value.count) from \(data.model.callsite(value.callsite)) "
                + "into post \(value.postID)"
        case .tokenDropped(let value):
            thread = data.threadName(value.thread)
            detail = "#\(value.registration) token released while registered"
            registration = value.registration
            style = .warning
        case .removeMissed(let value):
            thread = data.threadName(value.thread)
            detail = "removeObserver(obj#\(value.observer)\(value.name.map { ", \($0)" } ?? "")) matched nothing"
            style = .warning
        case .queue(let value):
            thread = data.threadName(value.thread)
            detail = [
                "queue \(value.queueID) \(value.action.rawValue)", value.name,
                "×\(value.count) pending \(value.pending)",
            ]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        case .enqueued(let value):
            thread = data.threadName(value.thread)
            detail =
                "post \(value.postID) → #\(value.registration) pending \(value.pending)"
                + (value.droppedOldest ? " buffer full: oldest dropped" : "")
            registration = value.registration
            if value.droppedOldest { style = .warning }
        case .checkpoint(let value):
            thread = data.threadName(value.thread)
            detail = "checkpoint \"\(value.label)\""
        case .gap(let value): detail = "\(value.count) events lost (\(value.reason))"; style = .error
        case .end(let value): detail = "stream ended (\(value.reason))"; style = .warning
        case .tick: detail = "clock"
        case .header, .type, .object, .callsite, .center, .history, .siteCount, .unknown: break
        }
        return Row(
            event: event, seq: seq, time: Format.streamTime(data.streamOffset(event.timestamp ?? 0)),
            thread: thread, kind: event.kind?.rawValue ?? "?", detail: detail,
            key: .event(seq: seq, registration: registration), style: style)
    }

    /// ` center sync` when the stream carries several centers; nothing for one.
    private static func centerText(_ index: UInt32?, _ data: DashboardData) -> String {
        guard data.model.carriesSeveralCenters else { return "" }
        return " center " + data.model.centerLabel(index ?? 0)
    }

    static let spec: TableSpec<Row> = {
        var spec = TableSpec<Row>(
            columns: [
                TableColumn(
                    "SEQ", .fixed(8), alignRight: true, text: { "\($0.seq)" }, value: { .number(Double($0.seq)) }),
                TableColumn("TIME", .fixed(10), alignRight: true, text: { $0.time }),
                TableColumn("KIND", .fixed(13), text: { $0.kind }, style: { $0.style == .normal ? .label : $0.style }),
                TableColumn("THREAD", .fixed(12), text: { $0.thread }),
                TableColumn("DETAIL", .flexible(min: 20), text: { $0.detail }, style: { $0.style }),
            ],
            key: { $0.key }, isLog: true, emptyMessage: "no events yet")
        spec.time = { $0.event.timestamp }
        return spec
    }()

    static func draw(
        _ data: DashboardData, state: TableState, rect: Rect, glyphs: Glyphs, extras: TableExtras = TableExtras(),
        into canvas: inout Canvas
    ) -> FrameInfo {
        TableWidget.render(
            data.tail.events.map { row($0, data) }, spec: spec, state: state, into: &canvas, rect: rect,
            glyphs: glyphs, extras: extras)
    }
}
