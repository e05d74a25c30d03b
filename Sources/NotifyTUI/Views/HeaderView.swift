import NotifyWire
import NotifyModel

/// The three header rows: who is inspected and the mode badge; rates with sparklines; counts,
/// warnings by severity, events lost, viewers and the redraw delay. Over the process overview
/// (`processes`), the figures are the totals of the processes listed.
enum HeaderView {
    static func draw(
        _ data: DashboardData, processes: [OverviewRow]? = nil, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) {
        let overview = processes.map { InspectorOverview.combined($0.map(\.summary)) } ?? data.model.overview
        drawTitle(data, processes: processes, rect: rect, glyphs: glyphs, into: &canvas)
        drawRates(data, processes: processes, overview: overview, rect: rect, glyphs: glyphs, into: &canvas)
        drawCounts(data, overview: overview, rect: rect, glyphs: glyphs, into: &canvas)
    }

    /// Row 0: who is inspected, for how long, and the badges at the right.
    private static func drawTitle(
        _ data: DashboardData, processes: [OverviewRow]?, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) {
        let model = data.model
        let width = rect.width
        canvas.fill(Rect(x: rect.x, y: rect.y, width: width, height: 1), style: .title)
        var title = " notifytop"
        let onHost = data.status.host.map { " on " + $0 } ?? ""
        if let processes {
            title += "  \(processes.count) " + (processes.count == 1 ? "process" : "processes") + onHost + ", totals"
        } else if let header = model.header {
            title += "  \(header.process) pid \(header.pid)" + onHost
            if let centers = model.centers {
                title += "  centers: " + centers.joined(separator: ", ")
            } else if !header.center.isEmpty && header.center != "default" {
                title += "  center \(header.center)"
            }
        } else if case .connecting(let what) = data.status.mode {
            title += "  " + what + onHost
        }
        if processes != nil {
            // No one process's clock: the rows show each uptime.
        } else if let uptime = data.status.processUptime {
            title += "  up " + Format.age(UInt64(max(0, uptime) * 1e9))
        } else if model.now > 0 {
            title += "  traced " + Format.age(data.streamOffset(model.now))
        }
        let badges = badgeList(data, glyphs: glyphs)
        let badgeWidth = badges.reduce(0) { $0 + DisplayWidth.of($1.text) + 1 }
        canvas.write(title, x: rect.x, y: rect.y, maxWidth: max(0, width - badgeWidth - 1), style: .title)
        var x = rect.x + width - badgeWidth
        for badge in badges {
            x += canvas.write(badge.text, x: x, y: rect.y, style: badge.style) + 1
        }
    }

    /// Row 1: rates, the slowest handler (figure: ever; sparkline: per second) and notifytop's
    /// own CPU (labelled so, as it is not the app's), each with a sparkline.
    private static func drawRates(
        _ data: DashboardData, processes: [OverviewRow]?, overview: InspectorOverview, rect: Rect, glyphs: Glyphs,
        into canvas: inout Canvas
    ) {
        let model = data.model
        let width = rect.width
        let y1 = rect.y + 1
        // Over the overview: the slowest handler any process ran within the rate history.
        let slowest =
            processes != nil
            ? overview.slowestHandlerHistory.max() ?? 0
            : model.names.reduce(UInt64(0)) { max($0, $1.isWildcard ? 0 : $1.maximumHandlerTime) }
        // A viewer attached late timed only the handlers it saw: the label says so.
        let slowestLabel = processes == nil && model.beganLate ? "slowest since attach" : "slowest"
        let cpu = data.status.selfCPU
        let meters = cpu == nil ? 3 : 4
        // A meter is its label, a 6-wide figure and the sparkline; "posts/s" is 7 wide.
        let cpuExtra = (cpu == nil ? 0 : selfCPULabel.count - 7) + slowestLabel.count - 7
        let room = min(30, (width - 4 - meters * 17 - cpuExtra) / meters)
        // Where four meters leave no room for useful sparklines, the figures all stay, bare.
        let sparkWidth = cpu == nil ? max(4, room) : (room < 3 ? 0 : room)
        // Over the overview the totals' rates read on the rows' scale, so steady traffic is not a full bar.
        let rateFloor = processes != nil ? OverviewView.sparkFloor : nil
        var x = rect.x
        x += meter(
            "posts/s", Format.rate(overview.postsPerSecond), history: overview.postHistory.map { Double($0) },
            rateFloor: rateFloor, sparkWidth: sparkWidth, x: x, y: y1, glyphs: glyphs, into: &canvas)
        x += meter(
            "deliv/s", Format.rate(overview.deliveriesPerSecond),
            history: overview.deliveryHistory.map { Double($0) }, rateFloor: rateFloor, sparkWidth: sparkWidth, x: x,
            y: y1, glyphs: glyphs, into: &canvas)
        x += meter(
            slowestLabel, Format.duration(slowest, ascii: glyphs == .ascii),
            history: overview.slowestHandlerHistory.map { Double($0) }, sparkWidth: sparkWidth, x: x, y: y1,
            glyphs: glyphs, into: &canvas)
        let cpuWidth = selfCPULabel.count + 10
        if let cpu, x + cpuWidth <= rect.x + width {
            _ = meter(
                selfCPULabel, Format.one(cpu) + "%", history: data.status.selfCPUHistory,
                sparkWidth: min(sparkWidth, rect.x + width - x - cpuWidth), x: x, y: y1, glyphs: glyphs, into: &canvas)
        }
    }

    /// Row 2's parts, in full words or short forms.
    private struct CountsRow {
        var counts: [(label: String, value: String, history: [UInt64])]
        var warningsLabel: String
        var warnings: [(text: String, style: Style)]
        var lost: String
        var viewers: String?
        var delay: String
        /// The row's width without sparklines.
        var width: Int

        /// Full words (`observers`, `2 errors`) or short forms (`obs`, `thr`, `2E 1W`).
        init(_ overview: InspectorOverview, delayMilliseconds: Int, short: Bool) {
            lost = Format.count(overview.eventsLost)
            viewers = overview.viewers.map { Format.count(UInt64(max(0, $0))) }
            delay = Format.delay(milliseconds: delayMilliseconds)
            counts = [
                (
                    short ? "obs" : "observers", Format.count(UInt64(max(0, overview.liveRegistrations))),
                    overview.observerHistory
                ),
                ("names", Format.count(UInt64(overview.names)), overview.nameHistory),
                (short ? "thr" : "threads", Format.count(UInt64(overview.threads)), overview.threadHistory),
            ]
            warnings = []
            let open = overview.openFindings
            if open.values.reduce(0, +) == 0 {
                warnings = [("OK ", .ok)]
            } else {
                for (severity, style, word) in [
                    (LeakSeverity.error, Style.error, "error"), (.warning, .warning, "warning"),
                    (.info, .info, "info"),
                ] {
                    guard let count = open[severity], count > 0 else { continue }
                    // Each count names its severity (`2 errors 1 warning`), so none reads as the total.
                    let plural = count == 1 || word == "info" ? word : word + "s"
                    warnings.append(
                        short ? ("\(count)\(word.prefix(1).uppercased()) ", style) : ("\(count) \(plural) ", style))
                }
            }
            warningsLabel = short ? "leaks " : "leaks: "
            width =
                counts.reduce(0) { $0 + $1.label.count + 1 + DisplayWidth.of($1.value) + 2 }
                + warningsLabel.count + warnings.reduce(0) { $0 + DisplayWidth.of($1.text) } + 1
                + "lost ".count + lost.count + 2 + "delay ".count + delay.count
                + (viewers.map { "viewers ".count + $0.count + 2 } ?? 0)
        }
    }

    /// Row 2: counts (each with a short sparkline when the row has room), warnings, loss, delay.
    private static func drawCounts(
        _ data: DashboardData, overview: InspectorOverview, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) {
        let y2 = rect.y + 2
        let delayMilliseconds = data.status.delayMilliseconds
        var row = CountsRow(overview, delayMilliseconds: delayMilliseconds, short: false)
        if row.width > rect.width { row = CountsRow(overview, delayMilliseconds: delayMilliseconds, short: true) }
        var spark = min(8, (rect.width - row.width) / 4 - 1)
        if spark < 3 { spark = 0 }
        var x = rect.x
        func sparkline(_ history: [UInt64]) {
            guard spark > 0 else { return }
            Sparkline.draw(
                history.map { Double($0) }, x: x, y: y2, width: spark, glyphs: glyphs, level: true, into: &canvas)
            x += spark + 1
        }
        for count in row.counts {
            x += canvas.write(count.label + " ", x: x, y: y2, style: .label)
            x += canvas.write(count.value + " ", x: x, y: y2, style: .value)
            sparkline(count.history)
            x += 1
        }
        x += canvas.write(row.warningsLabel, x: x, y: y2, style: .label)
        for warning in row.warnings { x += canvas.write(warning.text, x: x, y: y2, style: warning.style) }
        sparkline(overview.findingHistory)
        x += 1
        x += canvas.write("lost ", x: x, y: y2, style: .label)
        x += canvas.write(row.lost + "  ", x: x, y: y2, style: overview.eventsLost > 0 ? .warning : .value)
        if let viewers = row.viewers {
            x += canvas.write("viewers ", x: x, y: y2, style: .label)
            x += canvas.write(viewers + "  ", x: x, y: y2, style: .value)
        }
        x += canvas.write("delay ", x: x, y: y2, style: .label)
        canvas.write(row.delay, x: x, y: y2, style: .value)
    }

    /// The label of notifytop's own CPU use, so it does not read as the inspected app's.
    static let selfCPULabel = "notifytop cpu"

    /// `posts/s 12.3k ▂▃▅▇` with the label, figure and sparkline in their roles; returns the width.
    /// A `rateFloor` draws the sparkline on the rate scale of ``Sparkline/rateText(_:width:floor:glyphs:)``.
    private static func meter(
        _ label: String, _ figure: String, history: [Double], rateFloor: Double? = nil, sparkWidth: Int, x: Int,
        y: Int, glyphs: Glyphs, into canvas: inout Canvas
    ) -> Int {
        var used = canvas.write(label + " ", x: x, y: y, style: .label)
        used += canvas.write(DisplayWidth.fit(figure, to: 6, alignRight: true) + " ", x: x + used, y: y, style: .value)
        if let rateFloor {
            let text = Sparkline.rateText(history, width: max(0, sparkWidth), floor: rateFloor, glyphs: glyphs)
            canvas.write(text, x: x + used, y: y, maxWidth: max(0, sparkWidth), style: .sparkline)
        } else {
            Sparkline.draw(history, x: x + used, y: y, width: max(0, sparkWidth), glyphs: glyphs, into: &canvas)
        }
        return used + max(0, sparkWidth) + 2
    }

    private static func badgeList(_ data: DashboardData, glyphs: Glyphs) -> [(text: String, style: Style)] {
        var badges: [(String, Style)] = []
        if data.status.recordingPath != nil { badges.append(("[REC]", .recording)) }
        if data.status.recordingFailure != nil { badges.append(("[REC FAILED]", .warning)) }
        if let probeMode = data.status.probeMode { badges.append(("[\(probeMode)]", .recording)) }
        let offset = data.status.replayPosition ?? data.streamOffset(data.model.now)
        let position = " @" + Format.streamTime(offset) + "s "
        switch data.status.mode {
        case .connecting: badges.append((" CONNECTING ", .badgePaused))
        case .live:
            if let pending = data.status.eventsWhilePaused {
                badges.append((" PAUSED +\(Format.count(pending)) ", .badgePaused))
            } else {
                badges.append((" LIVE ", .badgeLive))
            }
        case .replay(let speed, let paused):
            let speedText = Format.speed(speed, times: glyphs.times)
            badges.append(((paused ? " REPLAY PAUSED " : " REPLAY \(speedText) ") + position.dropFirst(), .badgeReplay))
        case .ended(let reason):
            badges.append((" ENDED (\(reason)) ", .badgeEnded))
        }
        return badges
    }
}
