extension ViewState {
    /// Handles one key: help and filter typing first, then the keymap.
    ///
    /// Pure: the result depends only on the state, the key, the keymap and the last frame.
    package mutating func handle(_ key: Key, keymap: Keymap = .standard, context: FrameInfo) -> Reaction {
        if key == .resize { return .redraw }
        let hadNotice = notice != nil
        notice = nil
        let reaction = dispatch(key, keymap: keymap, context: context)
        return hadNotice && !reaction.redraw
            ? Reaction(redraw: true, quit: reaction.quit, command: reaction.command) : reaction
    }

    private mutating func dispatch(_ key: Key, keymap: Keymap, context: FrameInfo) -> Reaction {
        if case .mouse(let event) = key { return handle(event, context: context) }
        if showHelp {
            if keymap.action(for: key, isReplay: context.isReplay) == .quit && key == .control("c") {
                return Reaction(quit: true)
            }
            switch key {
            case .down, .char("j"): helpScroll += 1
            case .up, .char("k"): helpScroll = max(0, helpScroll - 1)
            case .pageDown: helpScroll += 10
            case .pageUp: helpScroll = max(0, helpScroll - 10)
            default:
                showHelp = false
                helpScroll = 0
            }
            return .redraw
        }
        if prompt != nil { return editPrompt(with: key, keymap: keymap, context: context) }
        guard let action = keymap.action(for: key, isReplay: context.isReplay) else { return .none }
        return reduce(action, context: context)
    }

    /// Applies one action.
    package mutating func reduce(_ action: Action, context: FrameInfo) -> Reaction {
        switch action {
        case .quit: return Reaction(quit: true)
        case .toggleHelp: showHelp.toggle()
        case .show(let target):
            view = target
            showsOverview = false
        case .showOverview:
            guard context.hasOverview || showsOverview else {
                notice = Notice(Self.noOverview(context), isError: true)
                return .redraw
            }
            showsOverview = true
        case .nextView:
            if !showsOverview { view = view.next }
            showsOverview = false
        case .previousView:
            if !showsOverview { view = view.previous }
            showsOverview = false
        case .moveUp: select(context.selectedIndex - 1, context: context, follow: false)
        case .moveDown: select(context.selectedIndex + 1, context: context, follow: false)
        case .pageUp: select(context.selectedIndex - context.pageSize, context: context, follow: false)
        case .pageDown: select(context.selectedIndex + context.pageSize, context: context, follow: false)
        case .home: select(0, context: context, follow: false)
        case .end: select(context.rowKeys.count - 1, context: context, follow: true)
        case .drillDown:
            guard context.rowKeys.indices.contains(context.selectedIndex) else { return .none }
            if showsOverview, case .process(let pid) = context.rowKeys[context.selectedIndex] {
                showsOverview = false
                return Reaction(redraw: true, command: .attach(pid))
            }
            // Enter on a folded group's summary row unfolds it.
            if context.rowKeys[context.selectedIndex].isGroup {
                return reduceFolding(.toggleGroup, context: context)
            }
            guard let level = context.rowKeys[context.selectedIndex].drillTarget ?? firstOpenable(context) else {
                return .none
            }
            if path.last == level { return .none }
            drill[view, default: []].append(level)
        case .back:
            if !path.isEmpty {
                drill[view]?.removeLast()
            } else if !table.search.isEmpty {
                table.search = ""
            } else if !table.filter.isEmpty {
                table.filter = ""
            } else if context.logClock != nil, log.clearedThrough != nil {
                log.clearedThrough = nil
            } else if expanded {
                expanded = false
            } else if context.hasOverview && !showsOverview {
                showsOverview = true
            } else if showsOverview {
                notice = Notice("at the top (view 0): Enter attaches the selected process")
            } else {
                notice = Notice("at the top; " + Self.noOverview(context), isError: true)
            }
        case .editFilter: prompt = Prompt(kind: .filter, replacing: table.filter)
        case .editSearch: prompt = Prompt(kind: .search, replacing: table.search)
        case .nextMatch: return jumpToMatch(forward: true, context: context)
        case .previousMatch: return jumpToMatch(forward: false, context: context)
        case .openPalette: prompt = Prompt(kind: .command)
        case .toggleExpand: expanded.toggle()
        case .exportView: return Reaction(redraw: true, command: .export(exportFormat))
        case .dumpScreen: return Reaction(redraw: true, command: .dumpScreen)
        case .sortNext, .sortPrevious:
            let columns = context.sortableColumns
            guard !columns.isEmpty else { return .none }
            let current = context.sortColumn.flatMap { columns.firstIndex(of: $0) } ?? 0
            let step = action == .sortNext ? 1 : columns.count - 1
            table.sortColumn = columns[(current + step) % columns.count]
        case .invertSort: table.inverted.toggle()
        case .regroup:
            if view == .observers {
                grouping = grouping.next
            } else if view == .threads {
                threadLayout = threadLayout == .merged ? .lanes : .merged
            } else {
                return .none
            }
        case .toggleFollow: table.follow.toggle()
        case .explain:
            let selected = context.rowKeys.indices.contains(context.selectedIndex)
            guard !showsOverview,
                let level = selected
                    ? Self.explainTarget(context.rowKeys[context.selectedIndex]) ?? findingOnScreen : findingOnScreen
            else {
                notice = Notice(
                    "x explains a name's last post (Names), a post or event (Events), a registration (Observers) or a warning (Leaks)",
                    isError: true)
                return .redraw
            }
            if path.last == level { return .none }
            drill[view, default: []].append(level)
        case .cascade, .postedBy:
            let up = action == .postedBy
            guard !showsOverview, context.rowKeys.indices.contains(context.selectedIndex),
                let target = Self.cascadeTarget(context.rowKeys[context.selectedIndex])
            else {
                notice = Notice(
                    (up ? "u climbs from" : "c opens the cascade of")
                        + " a post or delivery (Events, Threads, a registration's deliveries, x, c)",
                    isError: true)
                return .redraw
            }
            let level = up ? DrillLevel.postedBy(target) : .cascade(target)
            if path.last == level { return .none }
            let origin = context.rowKeys[context.selectedIndex]
            drill[view, default: []].append(level)
            if up { selectChainEnd(from: origin) }
        case .dropMark, .toggleClear, .toggleWrap: return reduceLog(action, context: context)
        case .toggleGroup, .toggleAllGroups: return reduceFolding(action, context: context)
        case .togglePause:
            paused.toggle()
            return Reaction(redraw: true, command: .togglePause)
        case .toggleRecording: return Reaction(redraw: true, command: .toggleRecording)
        case .toggleProbeMode: return Reaction(redraw: true, command: .toggleProbeMode)
        case .markRegistrations: return Reaction(redraw: true, command: .markRegistrations)
        case .faster: return Reaction(redraw: true, command: .scaleDelay(0.5))
        case .slower: return Reaction(redraw: true, command: .scaleDelay(2))
        case .stepEvent: return Reaction(redraw: true, command: .stepEvents(1))
        case .stepSecond: return Reaction(redraw: true, command: .stepSeconds(1))
        case .stepBackEvent: return Reaction(redraw: true, command: .stepBackEvents(1))
        case .stepBackSecond: return Reaction(redraw: true, command: .stepBackSeconds(1))
        case .goToTime: prompt = Prompt(kind: .time)
        case .speedUp: return Reaction(redraw: true, command: .scaleSpeed(2))
        case .speedDown: return Reaction(redraw: true, command: .scaleSpeed(0.5))
        case .redraw: return Reaction(redraw: true, command: .repaint)
        }
        return .redraw
    }

    /// A "posted by" chain lists the delivery or post it climbs from last: select it, by the row's
    /// key when the chain shows the same row, else by position.
    private mutating func selectChainEnd(from origin: RowKey) {
        var state = table
        if case .event = origin { state.selectedKey = origin } else { state.selectedKey = nil }
        state.selectedIndex = Int.max
        table = state
    }

    /// Why `0` (and Esc at the top) cannot show the process overview.
    static func noOverview(_ context: FrameInfo) -> String {
        context.isReplay
            ? "a replay has no view 0 (processes)"
            : "view 0 (processes) needs notifytop run without --pid or --demo"
    }

    /// In a warning's detail, where most lines are evidence, Enter on a line that opens nothing
    /// opens the first registration listed below it (or, from below the list, the first one).
    private func firstOpenable(_ context: FrameInfo) -> DrillLevel? {
        guard case .warning? = path.last else { return nil }
        let keys = context.rowKeys
        let after = keys[context.selectedIndex...].lazy.compactMap(\.drillTarget).first
        return after ?? keys.lazy.compactMap(\.drillTarget).first
    }

    mutating func select(_ index: Int, context: FrameInfo, follow: Bool) {
        guard !context.rowKeys.isEmpty else { return }
        let clamped = min(max(0, index), context.rowKeys.count - 1)
        var state = table
        state.selectedIndex = clamped
        state.selectedKey = context.rowKeys[clamped]
        if context.isLog { state.follow = follow }
        var scroll = context.scroll
        if clamped < scroll { scroll = clamped }
        if clamped >= scroll + context.pageSize { scroll = clamped - context.pageSize + 1 }
        state.scroll = max(0, scroll)
        table = state
    }

    /// What `x` explains on a row: a name's last post, an event (a post, or the registration it
    /// is about), a registration or a leak warning.
    static func explainTarget(_ key: RowKey) -> DrillLevel? {
        switch key {
        case .event(let seq, _): .explainEvent(seq)
        case .registration(let id), .delivery(let id, _): .explainRegistration(id)
        case .name(let name): .explainName(name)
        case .warning(let key): .explainFinding(key)
        case .continuation(let row, _): explainTarget(row)
        default: nil
        }
    }

    /// In a warning's detail, `x` on a line that explains nothing explains the warning.
    private var findingOnScreen: DrillLevel? {
        guard case .warning(let key)? = path.last else { return nil }
        return .explainFinding(key)
    }

    /// What `c` and `u` start from on a row: a post or deliver line, or a Threads delivery.
    static func cascadeTarget(_ key: RowKey) -> CascadeTarget? {
        switch key {
        case .event(let seq, _): .event(seq)
        case .delivery(let registration, let post): .delivery(post: post, registration: registration)
        case .continuation(let row, _): cascadeTarget(row)
        default: nil
        }
    }
}
