import NotifyModel

/// `x` on a leak warning: the deliveries the finding caused (a duplicate's extra runs, a leaked or
/// orphaned registration's runs) or prevented (the posts an ended or misnamed registration
/// missed), one row each, in time order; a table like every other. Rows open like Events rows:
/// Enter the registration, `c` the post's cascade, `u` who posted it.
enum FindingEffectsView {
    struct Row: Sendable {
        var effect: String
        var time: UInt64
        var post: UInt64
        var name: String
        var registration: UInt64
        var thread: String
        var ran: UInt64?
        var reason: String
        var detail: String
        var key: RowKey
    }

    static func rows(_ data: DashboardData, key: String) -> [Row] {
        guard let finding = data.model.findings.first(where: { $0.key.description == key }) else { return [] }
        let effects = data.model.effects(of: finding)
        var rows: [Row] = effects.effects.enumerated().map { index, effect in
            let seq = effect.delivery?.seq ?? effect.post?.seq ?? 0
            return Row(
                effect: effect.caused ? "caused" : "prevented", time: data.streamOffset(effect.time),
                post: effect.post?.seq ?? 0, name: effect.post?.name ?? "?", registration: effect.registration,
                thread: effect.delivery.map { data.threadName($0.thread) }
                    ?? effect.post.map { data.threadName($0.thread) } ?? "",
                ran: effect.delivery?.duration, reason: effect.reason, detail: effect.detail,
                key: seq == 0
                    ? .line(index)
                    : .event(seq: seq, registration: effect.registration == 0 ? nil : effect.registration))
        }
        for note in effects.notes {
            rows.append(
                Row(
                    effect: "", time: 0, post: 0, name: "", registration: 0, thread: "", ran: nil, reason: "note",
                    detail: note, key: .line(rows.count)))
        }
        return rows
    }

    static func spec(ascii: Bool) -> TableSpec<Row> {
        TableSpec<Row>(
            columns: [
                TableColumn(
                    "EFFECT", .fixed(9), text: { $0.effect }, sortKey: { .text($0.effect) },
                    style: { $0.effect == "caused" ? .warning : $0.effect.isEmpty ? .dim : .error }),
                TableColumn(
                    "TIME", .fixed(10), alignRight: true, descendingFirst: false,
                    text: { $0.effect.isEmpty ? "" : Format.streamTime($0.time) },
                    sortKey: { .number(Double($0.time)) }),
                TableColumn(
                    "POST", .fixed(8), alignRight: true, descendingFirst: false,
                    text: { $0.post == 0 ? "" : "\($0.post)" }, sortKey: { .number(Double($0.post)) }),
                TableColumn("NAME", .flexible(min: 12), text: { $0.name }, sortKey: { .text($0.name) }),
                TableColumn(
                    "REG", .fixed(6), alignRight: true, descendingFirst: false,
                    text: { $0.registration == 0 ? "" : "#\($0.registration)" },
                    sortKey: { .number(Double($0.registration)) }),
                TableColumn("THREAD", .fixed(12), text: { $0.thread }, sortKey: { .text($0.thread) }),
                TableColumn(
                    "RAN", .fixed(8), alignRight: true,
                    text: { $0.ran.map { Format.duration($0, ascii: ascii) } ?? "" },
                    sortKey: { .number(Double($0.ran ?? 0)) }),
                TableColumn("REASON", .fixed(16), text: { $0.reason }, sortKey: { .text($0.reason) }),
                TableColumn("DETAIL", .flexible(min: 20), text: { $0.detail }),
            ],
            key: { $0.key }, emptyMessage: "the warning is no longer kept")
    }

    static func crumb(_ data: DashboardData, key: String) -> String {
        "effects of " + LeakDetailView.crumb(data, key: key)
    }

    static func draw(
        _ data: DashboardData, key: String, state: TableState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        TableWidget.render(
            rows(data, key: key), spec: spec(ascii: glyphs == .ascii), state: state, into: &canvas, rect: rect,
            glyphs: glyphs)
    }
}
