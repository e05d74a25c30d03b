import NotifyWire
import NotifyModel

/// Composes a whole frame: header, tabs, breadcrumb, the active view, footer and help.
///
/// Pure: the same data, view state and size always give the same canvas, which is what the frame
/// tests, batch mode and the screenshots rely on.
package enum Dashboard {
    /// Below this size the dashboard shows a message instead of a cramped, misleading layout.
    package static let minimumSize = Size(width: 40, height: 10)

    /// Renders one frame.
    ///
    /// - Returns: The canvas and what its table showed, for the reducer's next key.
    package static func render(
        _ data: DashboardData, view: ViewState, size: Size, glyphs: Glyphs, keymap: Keymap = .standard
    ) -> (canvas: Canvas, info: FrameInfo) {
        var canvas = Canvas(size: size)
        let isReplay = data.status.isReplay
        guard size.width >= minimumSize.width, size.height >= minimumSize.height else {
            drawTooSmall(&canvas)
            return (canvas, FrameInfo(isReplay: isReplay))
        }
        var body = canvas.bounds
        var tabs: [HitRegion] = []
        if !view.expanded {
            HeaderView.draw(
                data, processes: view.showsOverview ? data.overview : nil, rect: body.takeTop(3), glyphs: glyphs,
                into: &canvas)
            tabs = drawTabs(data, view, rect: body.takeTop(1), glyphs: glyphs, into: &canvas)
        }
        let crumbs = body.takeTop(1)
        let footer = view.expanded ? nil : body.takeBottom(1)
        var info = renderBody(data, view: view, rect: body, glyphs: glyphs, into: &canvas)
        info.logClock = view.showsOverview && data.overview != nil ? nil : logClock(data, view: view)
        drawCrumbs(data, view: view, info: info, rect: crumbs, glyphs: glyphs, into: &canvas)
        info.isReplay = isReplay
        info.regions += tabs
        if let footer { info.regions += FooterBar.draw(keymap: keymap, isReplay: isReplay, y: footer.y, into: &canvas) }
        if view.showHelp {
            HelpOverlay.draw(keymap: keymap, isReplay: isReplay, glyphs: glyphs, scroll: view.helpScroll, into: &canvas)
        }
        return (canvas, info)
    }

    static func renderBody(
        _ data: DashboardData, view: ViewState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        let state = view.table
        if let rows = data.overview {
            if view.showsOverview {
                var info = OverviewView.draw(
                    rows, directory: data.overviewDirectory, emptyMessage: data.overviewEmptyMessage, state: state,
                    rect: rect, glyphs: glyphs, into: &canvas)
                if let omitted = OverviewView.omittedText(data) { info.omitted = omitted }
                return info
            }
            var info = renderBody(
                DashboardData(model: data.model, tail: data.tail, status: data.status, actions: data.actions),
                view: view, rect: rect, glyphs: glyphs, into: &canvas)
            info.hasOverview = true
            return info
        }
        let extras = logExtras(data, view: view)
        switch view.path.last {
        case .name(let name)?:
            return ObserversView.draw(data, name: name, state: state, rect: rect, glyphs: glyphs, into: &canvas)
        case .registration(let id)?:
            return RegistrationDetailView.draw(data, id: id, state: state, rect: rect, glyphs: glyphs, into: &canvas)
        case .warning(let key)?:
            return LeakDetailView.draw(data, key: key, state: state, rect: rect, glyphs: glyphs, into: &canvas)
        case .thread(let id)?:
            return ThreadsView.drawLog(
                data, threads: [id], state: state, rect: rect, glyphs: glyphs, extras: extras,
                into: &canvas)
        case .explainEvent?, .explainRegistration?, .explainName?:
            let level = view.path.last!
            return ExplainView.draw(data, level: level, state: state, rect: rect, glyphs: glyphs, into: &canvas)
        case .cascade?, .postedBy?:
            let level = view.path.last!
            return CascadeView.draw(data, level: level, state: state, rect: rect, glyphs: glyphs, into: &canvas)
        case .explainFinding(let key)?:
            return FindingEffectsView.draw(data, key: key, state: state, rect: rect, glyphs: glyphs, into: &canvas)
        case nil:
            switch view.view {
            case .names: return NamesView.draw(data, state: state, rect: rect, glyphs: glyphs, into: &canvas)
            case .observers:
                return ObserversView.draw(
                    data, grouping: view.grouping, folding: view.folding[view.grouping] ?? GroupFolding(),
                    state: state, rect: rect, glyphs: glyphs, into: &canvas)
            case .threads:
                return ThreadsView.draw(
                    data, layout: view.threadLayout, state: state, rect: rect, glyphs: glyphs,
                    extras: extras, into: &canvas)
            case .leaks: return LeaksView.draw(data, state: state, rect: rect, glyphs: glyphs, into: &canvas)
            case .events:
                return EventsView.draw(data, state: state, rect: rect, glyphs: glyphs, extras: extras, into: &canvas)
            case .log:
                return ActionLogView.draw(data, state: state, rect: rect, glyphs: glyphs, extras: extras, into: &canvas)
            }
        }
    }

    private static func drawTooSmall(_ canvas: inout Canvas) {
        let lines = [
            "notifytop needs at least \(minimumSize.width)x\(minimumSize.height)",
            "this terminal is \(canvas.size.width)x\(canvas.size.height)", "enlarge it, or press q",
        ]
        for (offset, line) in lines.enumerated() {
            let y = canvas.size.height / 2 - 1 + offset
            let x = max(0, (canvas.size.width - DisplayWidth.of(line)) / 2)
            canvas.write(line, x: x, y: y, style: offset == 0 ? .warning : .normal)
        }
    }

    private static func drawTabs(
        _ data: DashboardData, _ view: ViewState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) -> [HitRegion] {
        var x = rect.x
        var regions: [HitRegion] = []
        if let rows = data.overview {
            let label = " 0 Processes (\(rows.count)) "
            let width = canvas.write(label, x: x, y: rect.y, style: view.showsOverview ? .tabActive : .tabInactive)
            regions.append(HitRegion(Rect(x: x, y: rect.y, width: width, height: 1), .action(.showOverview)))
            x += width + 1
        }
        for tab in ViewID.allCases {
            let label = " \(tab.rawValue) \(tab.title) "
            let active = tab == view.view && !(view.showsOverview && data.overview != nil)
            let width = canvas.write(label, x: x, y: rect.y, style: active ? .tabActive : .tabInactive)
            regions.append(HitRegion(Rect(x: x, y: rect.y, width: width, height: 1), .action(.show(tab))))
            x += width + 1
        }
        var options: [String] = []
        if view.view == .observers && view.path.isEmpty { options.append("group: \(view.grouping.rawValue)") }
        if view.view == .threads && view.path.isEmpty { options.append("layout: \(view.threadLayout.rawValue)") }
        if view.view == .log {
            options.append("kept \(data.actions.count)  dropped \(data.actions.dropped)")
        }
        if view.view == .threads || view.view == .events || view.view == .log
            || view.path.last.map({ if case .thread = $0 { true } else { false } }) == true
        {
            options.append(view.table.follow ? "follow: on" : "follow: off")
        }
        let text = options.joined(separator: "  ")
        let width = DisplayWidth.of(text)
        if !text.isEmpty, x + width + 1 <= rect.width {
            canvas.write(text, x: rect.width - width - 1, y: rect.y, style: .dim)
        }
        return regions
    }

    private static func drawCrumbs(
        _ data: DashboardData, view: ViewState, info: FrameInfo, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) {
        let hiddenRows = info.hiddenRows
        var parts = [view.showsOverview && data.overview != nil ? "Processes" : view.view.title]
        for (index, level) in view.path.enumerated() {
            switch level {
            case .name(let name): parts.append(name)
            case .registration(let id):
                let observer = data.model.registration(id).map { ObserversView.observerText($0) } ?? "?"
                parts.append("#\(id) \(observer)")
            case .warning(let key): parts.append(LeakDetailView.crumb(data, key: key))
            case .thread(let id): parts.append(data.threadName(id))
            case .explainEvent, .explainRegistration, .explainName: parts.append(ExplainView.crumb(level))
            case .cascade, .postedBy: parts.append(CascadeView.crumb(data, level))
            case .explainFinding(let key):
                // Right after the warning's own crumb, "effects" says enough.
                let afterItsWarning = index > 0 && view.path[index - 1] == .warning(key)
                parts.append(afterItsWarning ? "effects" : FindingEffectsView.crumb(data, key: key))
            }
        }
        let suffix = view.expanded ? "  [e restores]" : ""
        if let prompt = view.prompt {
            drawPrompt(
                prompt, crumb: parts.joined(separator: glyphs.crumbSeparator) + suffix, rect: rect, glyphs: glyphs,
                into: &canvas)
            return
        }
        let table = view.table
        var right: [String] = []
        if !table.filter.isEmpty { right.append("Filter: " + table.filter) }
        if !table.search.isEmpty { right.append("Search: " + table.search + " (n/N)") }
        var rightText = right.joined(separator: "  ")
        if !rightText.isEmpty && table.search.isEmpty { rightText += "  (Esc clears)" }
        if let position = positionText(info) { rightText += (rightText.isEmpty ? "" : "  ") + position }
        let rightWidth = min(DisplayWidth.of(rightText), rect.width / 2)
        let crumbRoom = rect.width - rightWidth - 1
        let crumbWidth = crumbRoom - DisplayWidth.of(suffix)
        let crumb = fitCrumbs(parts, width: crumbWidth, separator: glyphs.crumbSeparator, glyphs: glyphs) + suffix
        var used = canvas.write(crumb, x: rect.x, y: rect.y, maxWidth: crumbRoom, style: .breadcrumb)
        var logText = logStatus(view, hiddenRows: hiddenRows)
        // What the table leaves out, unless a key's notice or a message needs the room.
        if view.notice == nil, data.status.progress == nil, data.status.message == nil, let omitted = info.omitted {
            logText += (logText.isEmpty ? "" : "  ") + omitted
        }
        if !logText.isEmpty, used + 2 < rect.width - rightWidth - 1 {
            let room = rect.width - rightWidth - used - 3
            let shown = DisplayWidth.truncate(logText, to: room, ellipsis: glyphs.ellipsis)
            used += 2 + canvas.write(shown, x: rect.x + used + 2, y: rect.y, style: .info)
        }
        if !rightText.isEmpty {
            canvas.write(
                rightText, x: rect.width - rightWidth, y: rect.y, width: rightWidth, style: .filter,
                ellipsis: glyphs.ellipsis)
        }
        let room = max(0, rect.width - rightWidth - used - 3)
        if let notice = view.notice {
            canvas.write(
                notice.text, x: rect.x + used + 2, y: rect.y, width: room, style: notice.isError ? .error : .info,
                ellipsis: glyphs.ellipsis)
        } else if let progress = data.status.progress {
            // A key refused meanwhile says why after it.
            canvas.write(
                progress + (data.status.message.map { "  " + $0 } ?? ""), x: rect.x + used + 2, y: rect.y,
                width: room, style: .info, ellipsis: glyphs.ellipsis)
        } else if let message = data.status.message {
            canvas.write(message, x: rect.x + used + 2, y: rect.y, width: room, style: .info, ellipsis: glyphs.ellipsis)
        }
    }

    /// `12/340`, or `3/40 of 340` under a filter: the selected row and the rows shown.
    static func positionText(_ info: FrameInfo) -> String? {
        guard let total = info.totalRows else { return nil }
        let position = "\(info.rowPosition)/\(info.shownRows)"
        return info.isFiltered ? position + " of \(total)" : position
    }

    /// The breadcrumb in `width` cells: when it does not fit, the levels after the first go, oldest
    /// first, behind one ellipsis, so the level on screen stays named; the last is cut last.
    package static func fitCrumbs(_ parts: [String], width: Int, separator: String, glyphs: Glyphs) -> String {
        let whole = parts.joined(separator: separator)
        guard DisplayWidth.of(whole) > width, parts.count > 2 else { return whole }
        for dropped in 1...(parts.count - 2) {
            let candidate = ([parts[0], glyphs.ellipsis] + parts[(1 + dropped)...]).joined(separator: separator)
            if DisplayWidth.of(candidate) <= width { return candidate }
        }
        return ([parts[0], glyphs.ellipsis, parts[parts.count - 1]]).joined(separator: separator)
    }

    /// A prompt: the filter and search on the right of the breadcrumb, the palette over the whole
    /// line; an error or the Tab candidates follow the text.
    private static func drawPrompt(
        _ prompt: Prompt, crumb: String, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) {
        let input = prompt.label + prompt.text + "_"
        var x = rect.x
        if prompt.kind != .command {
            let wanted = DisplayWidth.of(input) + (prompt.error.map { DisplayWidth.of($0) + 4 } ?? 0)
            let crumbWidth = max(0, min(DisplayWidth.of(crumb), rect.width - wanted - 1))
            if crumbWidth > 0 {
                canvas.write(
                    crumb, x: rect.x, y: rect.y, width: crumbWidth, style: .breadcrumb, ellipsis: glyphs.ellipsis)
                x += crumbWidth + 1
            }
        }
        x += canvas.write(input, x: x, y: rect.y, maxWidth: rect.x + rect.width - x, style: .filter)
        if let error = prompt.error {
            canvas.write(
                (glyphs == .ascii ? "  ! " : "  ✗ ") + error, x: x, y: rect.y, width: max(0, rect.x + rect.width - x),
                style: .error,
                ellipsis: glyphs.ellipsis)
        } else if prompt.text.isEmpty, !prompt.original.isEmpty, prompt.kind == .filter || prompt.kind == .search {
            canvas.write(
                "  " + (glyphs == .ascii ? "Up" : "↑") + " recalls \"" + prompt.original + "\"", x: x, y: rect.y,
                width: max(0, rect.x + rect.width - x), style: .dim, ellipsis: glyphs.ellipsis)
        } else if !prompt.candidates.isEmpty {
            canvas.write(
                "  " + prompt.candidates.joined(separator: "  "), x: x, y: rect.y,
                width: max(0, rect.x + rect.width - x), style: .dim, ellipsis: glyphs.ellipsis)
        }
    }
}
