import NotifyWire
import NotifyModel

/// One registration: a `debugDescription`-style summary on top and its recent deliveries below
/// (the end of the drill-down name → observers → deliveries).
enum RegistrationDetailView {
    static func summary(_ row: ObserverRow, _ data: DashboardData) -> [(String, Style)] {
        let now = data.model.now
        var lines: [(String, Style)] = []
        lines.append(
            (
                "#\(row.id) \(ObserversView.observerText(row)) observes \"\(row.displayName)\" (\(row.kind.rawValue))"
                    + (data.model.centerLabel(of: row).map { " on center \"\($0)\"" } ?? ""),
                .value
            ))
        lines.append(
            (
                "runs on \(ObserversView.targetText(row))  registered \(Format.age(row.age(at: now))) ago on "
                    + "\(data.threadName(row.registeringThread)) at \(row.callsite)"
                    + (row.preexisting ? "  (before attach)" : ""), .normal
            ))
        var state =
            "state \(ObserversView.stateText(row, now: data.model.now))  token \(row.tokenText)  deliveries \(row.deliveries)"
        if let last = row.lastDeliveryAt {
            state += "  last \(Format.age(now >= last ? now - last : 0)) ago"
            if let thread = row.lastDeliveringThread { state += " on \(data.threadName(thread))" }
        }
        lines.append((state, ObserversView.rowStyle(row) ?? .normal))
        lines.append(
            (
                (row.isMessage ? "subject " : "sender filter ") + "\(row.objectFilter?.description ?? "any")"
                    + "  main-thread only "
                    + (row.mainThreadOnly ? "yes" : "no"), .normal
            ))
        if MessageText.queues(row) {
            lines.append(
                (
                    "messages pending \(row.pendingMessages) (at most \(row.maximumPendingMessages))  queued "
                        + "\(row.enqueuedMessages)  dropped from a full buffer \(row.droppedMessages)",
                    row.droppedMessages > 0 ? .warning : .normal
                ))
        }
        if row.capturesObserverStrongly {
            lines.append(("handler captures its observer strongly: the center keeps it alive (R4)", .warning))
        }
        if let removal = row.removal {
            lines.append(
                (
                    "ended: \(removal.reason.rawValue) \(Format.age(now >= removal.at ? now - removal.at : 0)) ago on "
                        + data.threadName(removal.thread), .dim
                ))
        }
        return lines
    }

    static func draw(
        _ data: DashboardData, id: UInt64, state: TableState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        var body = rect
        guard let row = data.model.registration(id) else {
            canvas.write("registration #\(id) is no longer tracked", x: rect.x + 1, y: rect.y + 1, style: .dim)
            return FrameInfo()
        }
        let lines = summary(row, data)
        let top = body.takeTop(min(lines.count + 1, max(0, rect.height - 3)))
        for (offset, line) in lines.prefix(top.height).enumerated() {
            canvas.write(line.0, x: top.x + 1, y: top.y + offset, maxWidth: top.width - 1, style: line.1)
        }
        return ThreadsView.drawLog(
            data, threads: nil, registration: id, state: state, rect: body, glyphs: glyphs,
            into: &canvas)
    }
}
