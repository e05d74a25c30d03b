/// View 6: notifytop's own actions (``ActionLog``), newest last, following like the other logs.
enum ActionLogView {
    struct Row: Sendable {
        var entry: ActionLog.Entry
        var index: Int
        var clock: String
    }

    static let spec: TableSpec<Row> = {
        var spec = TableSpec<Row>(
            columns: [
                TableColumn("TIME", .fixed(12), text: { $0.clock }, value: { .number(Double($0.entry.time)) }),
                TableColumn("KIND", .fixed(9), text: { $0.entry.kind.rawValue }, style: { style($0.entry.kind) }),
                TableColumn("WHAT", .flexible(min: 20), text: { $0.entry.text }, style: { style($0.entry.kind) }),
            ],
            key: { .action($0.index) }, isLog: true, emptyMessage: "notifytop has done nothing yet")
        spec.time = { $0.entry.time }
        return spec
    }()

    static func style(_ kind: ActionLog.Kind) -> Style? {
        switch kind {
        case .loss, .filter: .warning
        case .reconnect: .info
        default: nil
        }
    }

    /// Rows with their clock text; keys count from the first entry ever, so a kept selection
    /// stays on its entry as older ones drop out.
    static func rows(_ log: ActionLog) -> [Row] {
        let first = Int(log.dropped)
        return log.entries.enumerated().map { offset, entry in
            Row(
                entry: entry, index: first + offset,
                clock: Format.clock(entry.time, utcOffsetSeconds: log.utcOffsetSeconds))
        }
    }

    static func draw(
        _ data: DashboardData, state: TableState, rect: Rect, glyphs: Glyphs, extras: TableExtras = TableExtras(),
        into canvas: inout Canvas
    ) -> FrameInfo {
        TableWidget.render(
            rows(data.actions), spec: spec, state: state, into: &canvas, rect: rect, glyphs: glyphs,
            extras: extras)
    }
}

extension Format {
    /// A wall-clock time of day with milliseconds: `14:03:07.123`.
    package static func clock(_ nanosecondsSince1970: UInt64, utcOffsetSeconds: Int = 0) -> String {
        let millis = Int64(nanosecondsSince1970 / 1_000_000) + Int64(utcOffsetSeconds) * 1_000
        let day = (millis % 86_400_000 + 86_400_000) % 86_400_000
        let seconds = day / 1_000
        return two(UInt64(seconds / 3_600)) + ":" + two(UInt64(seconds / 60 % 60)) + ":" + two(UInt64(seconds % 60))
            + "."
            + three(UInt64(day % 1_000))
    }
}
