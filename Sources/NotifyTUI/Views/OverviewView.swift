package import NotifyModel

/// One inspectable process in the overview (view 0): who it is and the summary of its own fold.
package struct OverviewRow: Sendable {
    /// The process id.
    package var pid: Int32
    /// The process name, from the socket directory.
    package var name: String
    /// The notification center's label, once the stream's header said it.
    package var center: String
    /// Seconds the process has run, when known.
    package var uptimeSeconds: Double?
    /// The summary of the process's fold: the figures its own views show.
    package var summary: InspectorOverview
    /// Why its stream ended, if it did.
    package var ended: String?
    /// Whether the session's views 1–6 show this process.
    package var isAttached: Bool
    /// Threads the process has, from the system, for a process listed without a stream yet.
    package var threads: Int?
    /// What STATE says of a process listed without a stream yet (one attached on request).
    package var notAttached: String?
    /// Lines its stream sent that could not be decoded and were skipped.
    package var skippedLines: Int

    /// Creates a row.
    package init(
        pid: Int32, name: String, center: String = "", uptimeSeconds: Double? = nil,
        summary: InspectorOverview, ended: String? = nil, isAttached: Bool = false, threads: Int? = nil,
        notAttached: String? = nil, skippedLines: Int = 0
    ) {
        self.pid = pid
        self.name = name
        self.center = center
        self.uptimeSeconds = uptimeSeconds
        self.summary = summary
        self.ended = ended
        self.isAttached = isAttached
        self.threads = threads
        self.notAttached = notAttached
        self.skippedLines = skippedLines
    }

    /// What STATE says: how the stream ended, what a process not attached yet waits for, whether
    /// lines were skipped (a stream of nothing but undecodable lines is no trace), or `live`.
    package var state: String {
        let lines = "\(skippedLines) line\(skippedLines == 1 ? "" : "s") skipped"
        if let ended { return "ended: " + ended + (skippedLines > 0 ? "; " + lines : "") }
        if let notAttached { return notAttached }
        guard skippedLines > 0 else { return "live" }
        // A header and nothing else decoded: the stream is not a working trace.
        return summary.totals.events <= 1 ? "undecodable: " + lines : "live, " + lines
    }

    /// Open warnings of `severity`.
    package func warnings(_ severity: LeakSeverity) -> Int { summary.openFindings[severity] ?? 0 }
}

/// View 0: every inspectable process of this user on the host, one row each, live. Enter
/// attaches the session's views to the selected process. VIEWERS counts the viewers each process
/// streams to, this notifytop included ("-" for producers that do not say).
///
/// Every title and figure reads whole from 100 columns: the rate sparklines yield first (8 cells
/// from 126 columns, 5 at 120, 3 at 116, none below), then CENTER (below 112); the figures stay.
package enum OverviewView {
    /// Cells of each sparkline at most.
    static let sparkWidth = 8
    /// Cells of every column but the two rates at their least, and the gaps of all 15 columns.
    static let restWidth = 8 + 12 + centerWidth + 6 + 6 + 6 + 5 + 4 + 4 + 4 + 5 + 7 + stateWidth + 14
    /// CENTER's least width (`notify-demo`), and STATE's (`live`; a longer end reason is shortened).
    static let centerWidth = 11
    static let stateWidth = 6
    /// A rate cell without its sparkline: the figure (at most 5 cells) and a space.
    static let rateFigureWidth = 6

    /// What fits in `width` cells: the rate sparklines' width (0: none) and whether CENTER shows.
    static func layout(width: Int?, wideState: Int = 0) -> (spark: Int, showsCenter: Bool) {
        guard let width else { return (sparkWidth, true) }
        let room = width - restWidth - wideState
        if room >= 2 * (rateFigureWidth + 3) { return (min(sparkWidth, room / 2 - rateFigureWidth), true) }
        return (0, room >= 2 * "POSTS/S".count)
    }
    /// Events per rate bucket under which a sparkline stays low (a trickle does not look busy).
    static let sparkFloor: Double = 10

    /// What the empty overview says: how a process becomes inspectable, and where it shows up.
    static func emptyMessage(directory: String?) -> String {
        "no inspectable process yet: start an app with NOTIFYTOP=1 (or notify-demo)"
            + (directory.map { "; its socket appears in \($0) and its row here" } ?? "")
    }

    /// - Parameters:
    ///   - glyphs: The characters the terminal can show.
    ///   - directory: The socket directory, named in the empty table's message.
    ///   - emptyMessage: What an empty table says instead of the default.
    ///   - width: The cells the table has; nil lays it out at its widest (JSON, exports).
    ///   - stateMinimum: STATE's least width: what a process not attached yet says reads whole.
    static func spec(
        glyphs: Glyphs, directory: String? = nil, emptyMessage: String? = nil, width: Int? = nil,
        stateMinimum: Int = stateWidth
    ) -> TableSpec<OverviewRow> {
        let ascii = glyphs == .ascii
        let (spark, showsCenter) = layout(width: width, wideState: stateMinimum - stateWidth)
        let rateWidth = spark > 0 ? rateFigureWidth + spark : "POSTS/S".count
        @Sendable func rate(_ value: Double, _ history: [UInt64]) -> String {
            guard spark > 0 else { return Format.rate(value) }
            return Format.rate(value) + " "
                + Sparkline.rateText(history.map { Double($0) }, width: spark, floor: sparkFloor, glyphs: glyphs)
        }
        return TableSpec(
            columns: [
                TableColumn(
                    "PID", .fixed(8), alignRight: true, descendingFirst: false,
                    text: { ($0.isAttached ? (ascii ? "*" : "●") : "") + "\($0.pid)" },
                    sortKey: { .number(Double($0.pid)) }),
                TableColumn("PROCESS", .flexible(min: 12), text: { $0.name }, sortKey: { .text($0.name) }),
                TableColumn(
                    "CENTER", showsCenter ? .flexible(min: centerWidth) : .fixed(0), text: { $0.center },
                    sortKey: { .text($0.center) }),
                TableColumn(
                    "UPTIME", .fixed(6), alignRight: true,
                    text: { row in row.uptimeSeconds.map { Format.age(UInt64($0 * 1e9)) } ?? "-" },
                    sortKey: { .number($0.uptimeSeconds ?? 0) }),
                TableColumn(
                    "POSTS/S", .fixed(rateWidth), alignRight: true,
                    text: { shown($0) { rate($0.summary.postsPerSecond, $0.summary.postHistory) } },
                    sortKey: { .number($0.summary.postsPerSecond) }),
                TableColumn(
                    "DELIV/S", .fixed(rateWidth), alignRight: true,
                    text: { shown($0) { rate($0.summary.deliveriesPerSecond, $0.summary.deliveryHistory) } },
                    sortKey: { .number($0.summary.deliveriesPerSecond) }),
                TableColumn(
                    "POSTS", .fixed(6), alignRight: true, text: { shown($0) { Format.count($0.summary.totals.posts) } },
                    sortKey: { .number(Double($0.summary.totals.posts)) }),
                TableColumn(
                    "DELIV", .fixed(6), alignRight: true,
                    text: { shown($0) { Format.count($0.summary.totals.deliveries) } },
                    sortKey: { .number(Double($0.summary.totals.deliveries)) }),
                TableColumn(
                    "OBS", .fixed(5), alignRight: true,
                    text: { shown($0) { Format.count(UInt64($0.summary.liveRegistrations)) } },
                    sortKey: { .number(Double($0.summary.liveRegistrations)) }),
                TableColumn(
                    "ERR", .fixed(4), alignRight: true, text: { shown($0) { "\($0.warnings(.error))" } },
                    sortKey: { .number(Double($0.warnings(.error))) },
                    style: { $0.warnings(.error) > 0 ? .error : nil }),
                TableColumn(
                    "WARN", .fixed(4), alignRight: true, text: { shown($0) { "\($0.warnings(.warning))" } },
                    sortKey: { .number(Double($0.warnings(.warning))) },
                    style: { $0.warnings(.warning) > 0 ? .warning : nil }),
                TableColumn(
                    "INFO", .fixed(4), alignRight: true, text: { shown($0) { "\($0.warnings(.info))" } },
                    sortKey: { .number(Double($0.warnings(.info))) }),
                TableColumn(
                    "LOST", .fixed(5), alignRight: true, text: { shown($0) { Format.count($0.summary.eventsLost) } },
                    sortKey: { .number(Double($0.summary.eventsLost)) },
                    style: { $0.summary.eventsLost > 0 ? .warning : nil }),
                TableColumn(
                    "VIEWERS", .fixed(7), alignRight: true,
                    text: { $0.summary.viewers.map { "\($0)" } ?? "-" },
                    sortKey: { .number(Double($0.summary.viewers ?? -1)) }),
                TableColumn(
                    "STATE", .flexible(min: stateMinimum),
                    text: { $0.state }, sortKey: { .text($0.ended ?? "") },
                    style: { $0.ended != nil ? .dim : $0.skippedLines > 0 ? .warning : nil }),
            ],
            key: { .process($0.pid) }, defaultSort: 0,
            emptyMessage: emptyMessage ?? Self.emptyMessage(directory: directory))
    }

    /// A figure of the process's fold, "-" while it is not attached (nothing is counted yet).
    @Sendable static func shown(_ row: OverviewRow, _ figure: (OverviewRow) -> String) -> String {
        row.notAttached == nil ? figure(row) : "-"
    }

    /// "6 more processes not shown: …" while the listing names more than the overview follows.
    package static func omittedText(_ data: DashboardData) -> String? {
        let count = data.overviewNotShown
        guard count > 0 else { return nil }
        return
            "\(count) more process\(count == 1 ? "" : "es") not shown: notifytop follows at most \(data.overviewLimit)"
    }

    static func draw(
        _ rows: [OverviewRow], directory: String? = nil, emptyMessage: String? = nil, state: TableState, rect: Rect,
        glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        var info = TableWidget.render(
            rows,
            spec: spec(
                glyphs: glyphs, directory: directory, emptyMessage: emptyMessage, width: rect.width,
                stateMinimum: max(
                    stateWidth,
                    min(40, rect.width / 3, rows.map { $0.ended == nil ? $0.state.count : 0 }.max() ?? 0))),
            state: state, into: &canvas,
            rect: rect,
            glyphs: glyphs)
        info.hasOverview = true
        return info
    }

    /// The rows after the overview table's filter and sort (batch JSON, exports).
    package static func ordered(_ rows: [OverviewRow], state: TableState) -> [OverviewRow] {
        TableWidget.order(rows, spec: spec(glyphs: .ascii), state: state)
    }
}
