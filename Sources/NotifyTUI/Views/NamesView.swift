import NotifyWire
import NotifyModel

/// View 1: one row per notification name (and the `*` wildcard row): observers, posts,
/// deliveries, handler time and threads. Enter opens the name's observers.
enum NamesView {
    /// - Parameter sinceAttach: The stream began late (``InspectorState/beganLate``): handler times
    ///   cover only its events, and the columns' titles say so.
    /// - Parameter since: Per name, registrations added and removed since the `b` mark: a last
    ///   column shows them (last, so the other columns keep their positions).
    static func spec(
        now: UInt64, ascii: Bool, sinceAttach: Bool = false, since: [String: (added: Int, removed: Int)]? = nil
    ) -> TableSpec<NameRow> {
        // A name with no handler run timed has no handler times: "-", not a measured 0.
        let duration: @Sendable (NameRow, UInt64) -> String = { row, value in
            row.handlerTime.count == 0 ? "-" : Format.duration(value, ascii: ascii)
        }
        let timing = { (title: String) in sinceAttach ? "ATTACH \(title)" : title }
        let timingWidth = sinceAttach ? 10 : 6
        var columns: [TableColumn<NameRow>] = [
            TableColumn(
                "NAME", .flexible(min: 16), text: MessageText.name, sortKey: { .text($0.name) },
                style: {
                    $0.isWildcard
                        ? .dim
                        : ($0.postsWithNoObserver > 0 && $0.liveObservers == 0
                            ? .warning : $0.isMessage ? .info : nil)
                }),
            TableColumn(
                "OBS", .fixed(5), alignRight: true, text: { Format.count(UInt64($0.liveObservers)) },
                sortKey: { .number(Double($0.liveObservers)) }),
            TableColumn(
                "POSTS", .fixed(7), alignRight: true, text: { Format.count($0.posts) },
                sortKey: { .number(Double($0.posts)) }),
            TableColumn(
                "DELIV", .fixed(7), alignRight: true, text: { Format.count($0.deliveries) },
                sortKey: { .number(Double($0.deliveries)) }),
            TableColumn(
                timing("AVG"), .fixed(timingWidth), alignRight: true, text: { duration($0, $0.averageHandlerTime) },
                sortKey: { .number(Double($0.averageHandlerTime)) }),
            TableColumn(
                timing("P99"), .fixed(timingWidth), alignRight: true, text: { duration($0, $0.p99HandlerTime) },
                sortKey: { .number(Double($0.p99HandlerTime)) }),
            TableColumn(
                timing("MAX"), .fixed(timingWidth), alignRight: true, text: { duration($0, $0.maximumHandlerTime) },
                sortKey: { .number(Double($0.maximumHandlerTime)) }),
            TableColumn(
                "THR", .fixed(4), alignRight: true, text: { "\($0.handlingThreads.count)" },
                sortKey: { .number(Double($0.handlingThreads.count)) }),
            TableColumn(
                "LAST", .fixed(6), alignRight: true, descendingFirst: false,
                text: { row in row.lastPostAt.map { Format.age(now >= $0 ? now - $0 : 0) } ?? "-" },
                sortKey: { row in .number(row.lastPostAt.map { Double(now >= $0 ? now - $0 : 0) } ?? .infinity) }),
        ]
        if let since {
            columns.append(
                TableColumn(
                    "SINCE", .fixed(9), alignRight: true,
                    text: { RegistrationMark.text(since[$0.name], ascii: ascii) },
                    sortKey: { row in .number(Double(since[row.name].map { $0.added + $0.removed } ?? 0)) }))
        }
        return TableSpec(
            columns: columns,
            key: { .name($0.name) }, defaultSort: 3,
            emptyMessage: "no notification names yet: waiting for registrations and posts")
    }

    /// The names, without the `*` row while no wildcard observer exists.
    static func rows(_ data: DashboardData) -> [NameRow] {
        var rows = data.model.names
        if let first = rows.first, first.isWildcard, first.liveObservers == 0, first.deliveries == 0 {
            rows.removeFirst()
        }
        if let other = data.model.otherNames { rows.append(other) }
        return rows
    }

    static func draw(
        _ data: DashboardData, state: TableState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        TableWidget.render(
            rows(data),
            spec: spec(
                now: data.model.now, ascii: glyphs == .ascii, sinceAttach: data.model.beganLate,
                since: data.status.registrationMark?.changes(data.model)),
            state: state,
            into: &canvas, rect: rect, glyphs: glyphs)
    }
}
