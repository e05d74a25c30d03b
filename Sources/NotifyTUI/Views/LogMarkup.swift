import NotifyModel

/// The log views' marks, clear and wrapping (`m`, `C`, `w`, k9s's log keys): which tables get
/// them, what their clock reads, and how the title line reports them.
extension Dashboard {
    /// Whether the table on screen is one of the logs that marks and clears apply to: the Threads
    /// log (merged, lanes, one thread), the Events tail and notifytop's own log.
    static func showsMarkableLog(_ view: ViewState) -> Bool {
        switch (view.view, view.path.last) {
        case (.threads, nil), (.threads, .thread?), (.events, nil), (.log, nil): true
        default: false
        }
    }

    /// The clock of the log on screen: stream time for deliveries and events, the wall clock of
    /// the newest entry for notifytop's own log (which has no stream time).
    static func logClock(_ data: DashboardData, view: ViewState) -> LogClock? {
        guard showsMarkableLog(view) else { return nil }
        if view.view == .log {
            let now = data.actions.entries.last?.time ?? 0
            return LogClock(now: now, label: Format.clock(now, utcOffsetSeconds: data.actions.utcOffsetSeconds))
        }
        let now = data.model.now
        return LogClock(now: now, label: Format.streamTime(data.streamOffset(now)))
    }

    /// What the table draws for the log on screen, if it is one.
    static func logExtras(_ data: DashboardData, view: ViewState) -> TableExtras {
        guard let clock = logClock(data, view: view) else { return TableExtras() }
        return TableExtras(log: view.log, now: clock.now)
    }

    /// The title line's report: `marks 2: 1 @3.120, 2 @5.004  cleared 17 (C shows)  wrap`.
    static func logStatus(_ view: ViewState, hiddenRows: Int) -> String {
        guard showsMarkableLog(view) else { return "" }
        let log = view.log
        var parts: [String] = []
        let marks = log.visibleMarks
        if !marks.isEmpty {
            let listed = marks.suffix(3).map { "\($0.number) @\($0.label)" }.joined(separator: ", ")
            parts.append("marks \(marks.count): " + (marks.count > 3 ? "…, " : "") + listed)
        }
        if log.clearedThrough != nil {
            // A bounded tail may already have dropped every cleared row: then there is no count to give.
            parts.append(hiddenRows > 0 ? "cleared \(hiddenRows) (C shows)" : "cleared: new rows only (C shows all)")
        }
        if log.wrap { parts.append("wrap") }
        return parts.joined(separator: "  ")
    }
}

extension ThreadsView {
    /// One line of a lane: a delivery or a mark.
    enum LaneLine {
        case entry(DeliveryLogEntry)
        case mark(LogMark)
    }

    /// The last `height` lines of a lane: cleared deliveries left out, marks between the rest.
    ///
    /// - Returns: The lines and how many deliveries the clear hid.
    static func laneLines(_ entries: [DeliveryLogEntry], extras: TableExtras, height: Int) -> ([LaneLine], Int) {
        guard height > 0 else { return ([], 0) }
        guard let log = extras.log else { return (entries.suffix(height).map { .entry($0) }, 0) }
        var kept = entries
        if let cleared = log.clearedThrough { kept.removeAll { $0.start <= cleared } }
        var marks = log.visibleMarks.filter { mark in extras.now.map { mark.time <= $0 } ?? true }
        marks.sort { ($0.time, $0.number) < ($1.time, $1.number) }
        var lines: [LaneLine] = []
        var next = 0
        for entry in kept {
            while next < marks.count, marks[next].time < entry.start {
                lines.append(.mark(marks[next]))
                next += 1
            }
            lines.append(.entry(entry))
        }
        lines += marks[next...].map { .mark($0) }
        return (Array(lines.suffix(height)), entries.count - kept.count)
    }
}
