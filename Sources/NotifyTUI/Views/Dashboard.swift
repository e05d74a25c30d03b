import NotifyEvents
import NotifyModel

/// Composes a whole frame: header, tabs, breadcrumb, the active view, footer and help.
///
/// Pure: the same data, view state and size always give the same canvas, which is what the frame
/// tests, batch mode and the screenshots rely on.
public enum Dashboard {
    /// Below this size the dashboard shows a message instead of a cramped, misleading layout.
    public static let minimumSize = Size(width: 40, height: 10)

    /// Renders one frame.
    ///
    /// - Returns: The canvas and what its table showed, for the reducer's next key.
    public static func render(
        _ data: DashboardData, view: ViewState, size: Size, glyphs: Glyphs, keymap: Keymap = .standard
    ) -> (canvas: Canvas, info: FrameInfo) {
        var canvas = Canvas(size: size)
        let isReplay = data.status.isReplay
        guard size.width >= minimumSize.width, size.height >= minimumSize.height else {
            drawTooSmall(&canvas)
            return (canvas, FrameInfo(isReplay: isReplay))
        }
        var body = canvas.bounds
        HeaderView.draw(data, rect: body.takeTop(3), glyphs: glyphs, into: &canvas)
        drawTabs(view, rect: body.takeTop(1), glyphs: glyphs, into: &canvas)
        drawCrumbs(data, view: view, rect: body.takeTop(1), glyphs: glyphs, into: &canvas)
        let footer = body.takeBottom(1)
        var info = renderBody(data, view: view, rect: body, glyphs: glyphs, into: &canvas)
        info.isReplay = isReplay
        FooterBar.draw(keymap: keymap, isReplay: isReplay, y: footer.y, into: &canvas)
        if view.showHelp { HelpOverlay.draw(keymap: keymap, isReplay: isReplay, glyphs: glyphs, into: &canvas) }
        return (canvas, info)
    }

    static func renderBody(
        _ data: DashboardData, view: ViewState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        let state = view.table
        switch view.path.last {
        case .name(let name)?:
            return ObserversView.draw(data, name: name, state: state, rect: rect, glyphs: glyphs, into: &canvas)
        case .registration(let id)?:
            return RegistrationDetailView.draw(data, id: id, state: state, rect: rect, glyphs: glyphs, into: &canvas)
        case .warning(let key)?:
            return LeakDetailView.draw(data, key: key, state: state, rect: rect, glyphs: glyphs, into: &canvas)
        case .thread(let id)?:
            return ThreadsView.drawLog(data, threads: [id], state: state, rect: rect, glyphs: glyphs, into: &canvas)
        case nil:
            switch view.view {
            case .names: return NamesView.draw(data, state: state, rect: rect, glyphs: glyphs, into: &canvas)
            case .observers:
                return ObserversView.draw(data, grouping: view.grouping, state: state, rect: rect, glyphs: glyphs,
                                          into: &canvas)
            case .threads:
                return ThreadsView.draw(data, layout: view.threadLayout, state: state, rect: rect, glyphs: glyphs,
                                        into: &canvas)
            case .leaks: return LeaksView.draw(data, state: state, rect: rect, glyphs: glyphs, into: &canvas)
            case .events: return EventsView.draw(data, state: state, rect: rect, glyphs: glyphs, into: &canvas)
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

    private static func drawTabs(_ view: ViewState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas) {
        var x = rect.x
        for tab in ViewID.allCases {
            let label = " \(tab.rawValue) \(tab.title) "
            x += canvas.write(label, x: x, y: rect.y, style: tab == view.view ? .tabActive : .tabInactive)
            x += 1
        }
        var options: [String] = []
        if view.view == .observers && view.path.isEmpty { options.append("group: \(view.grouping.rawValue)") }
        if view.view == .threads && view.path.isEmpty { options.append("layout: \(view.threadLayout.rawValue)") }
        if view.view == .threads || view.view == .events || view.path.last.map({ if case .thread = $0 { true } else { false } }) == true {
            options.append(view.table.follow ? "follow: on" : "follow: off")
        }
        let text = options.joined(separator: "  ")
        let width = DisplayWidth.of(text)
        if !text.isEmpty, x + width + 1 <= rect.width {
            canvas.write(text, x: rect.width - width - 1, y: rect.y, style: .dim)
        }
    }

    private static func drawCrumbs(
        _ data: DashboardData, view: ViewState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) {
        var parts = [view.view.title]
        for level in view.path {
            switch level {
            case .name(let name): parts.append(name)
            case .registration(let id):
                let observer = data.model.registration(id).map { ObserversView.observerText($0) } ?? "?"
                parts.append("#\(id) \(observer)")
            case .warning(let key): parts.append(key)
            case .thread(let id): parts.append(data.threadName(id))
            }
        }
        let crumb = parts.joined(separator: glyphs.crumbSeparator)
        let filter = view.table.filter
        var right = ""
        if let prompt = view.timePrompt { right = "Go to time (1.5s, 250ms, 2m): " + prompt + "_" }
        else if view.editingFilter { right = "Filter: " + filter + "_" }
        else if !filter.isEmpty { right = "Filter: " + filter + "  (Esc clears)" }
        let rightWidth = min(DisplayWidth.of(right), rect.width / 2)
        let used = canvas.write(crumb, x: rect.x, y: rect.y, maxWidth: rect.width - rightWidth - 1, style: .breadcrumb)
        if !right.isEmpty {
            canvas.write(right, x: rect.width - rightWidth, y: rect.y, width: rightWidth, style: .filter,
                         ellipsis: glyphs.ellipsis)
        } else if let message = data.status.message {
            canvas.write(message, x: rect.x + used + 2, y: rect.y, maxWidth: max(0, rect.width - used - 2), style: .info)
        }
    }
}
