extension ViewState {
    /// Handles one key: help and filter typing first, then the keymap.
    ///
    /// Pure: the result depends only on the state, the key, the keymap and the last frame.
    public mutating func handle(_ key: Key, keymap: Keymap = .standard, context: FrameInfo) -> Reaction {
        if key == .resize { return .redraw }
        if showHelp {
            if keymap.action(for: key, isReplay: context.isReplay) == .quit && key == .control("c") {
                return Reaction(quit: true)
            }
            showHelp = false
            return .redraw
        }
        if editingFilter { return editFilter(with: key, context: context) }
        if timePrompt != nil { return editTimePrompt(with: key) }
        guard let action = keymap.action(for: key, isReplay: context.isReplay) else { return .none }
        return reduce(action, context: context)
    }

    /// Applies one action.
    public mutating func reduce(_ action: Action, context: FrameInfo) -> Reaction {
        switch action {
        case .quit: return Reaction(quit: true)
        case .toggleHelp: showHelp.toggle()
        case .show(let target): view = target
        case .nextView: view = view.next
        case .previousView: view = view.previous
        case .moveUp: select(context.selectedIndex - 1, context: context, follow: false)
        case .moveDown: select(context.selectedIndex + 1, context: context, follow: false)
        case .pageUp: select(context.selectedIndex - context.pageSize, context: context, follow: false)
        case .pageDown: select(context.selectedIndex + context.pageSize, context: context, follow: false)
        case .home: select(0, context: context, follow: false)
        case .end: select(context.rowKeys.count - 1, context: context, follow: true)
        case .drillDown:
            guard context.rowKeys.indices.contains(context.selectedIndex),
                  let level = DrillLevel(key: context.rowKeys[context.selectedIndex])
            else { return .none }
            if path.last == level { return .none }
            drill[view, default: []].append(level)
        case .back:
            if !path.isEmpty {
                drill[view]?.removeLast()
            } else if !table.filter.isEmpty {
                table.filter = ""
            } else {
                return .none
            }
        case .editFilter: editingFilter = true
        case .sortNext, .sortPrevious:
            let columns = context.sortableColumns
            guard !columns.isEmpty else { return .none }
            let current = context.sortColumn.flatMap { columns.firstIndex(of: $0) } ?? 0
            let step = action == .sortNext ? 1 : columns.count - 1
            table.sortColumn = columns[(current + step) % columns.count]
        case .invertSort: table.inverted.toggle()
        case .regroup:
            if view == .observers { grouping = grouping.next }
            else if view == .threads { threadLayout = threadLayout == .merged ? .lanes : .merged }
            else { return .none }
        case .toggleFollow: table.follow.toggle()
        case .togglePause:
            paused.toggle()
            return Reaction(redraw: true, command: .togglePause)
        case .toggleRecording: return Reaction(redraw: true, command: .toggleRecording)
        case .faster: return Reaction(redraw: true, command: .scaleDelay(0.5))
        case .slower: return Reaction(redraw: true, command: .scaleDelay(2))
        case .stepEvent: return Reaction(redraw: true, command: .stepEvents(1))
        case .stepSecond: return Reaction(redraw: true, command: .stepSeconds(1))
        case .stepBackEvent: return Reaction(redraw: true, command: .stepBackEvents(1))
        case .stepBackSecond: return Reaction(redraw: true, command: .stepBackSeconds(1))
        case .goToTime: timePrompt = ""
        case .speedUp: return Reaction(redraw: true, command: .scaleSpeed(2))
        case .speedDown: return Reaction(redraw: true, command: .scaleSpeed(0.5))
        case .redraw: return Reaction(redraw: true, command: .repaint)
        }
        return .redraw
    }

    private mutating func select(_ index: Int, context: FrameInfo, follow: Bool) {
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

    /// The `g` prompt: digits and units, Enter goes there (when it parses), Esc cancels.
    private mutating func editTimePrompt(with key: Key) -> Reaction {
        switch key {
        case .enter:
            guard let nanoseconds = TimeOffset.nanoseconds(timePrompt ?? "") else { return .none }
            timePrompt = nil
            return Reaction(redraw: true, command: .goToTime(nanoseconds))
        case .escape: timePrompt = nil
        case .backspace, .delete:
            if timePrompt?.isEmpty == false { timePrompt?.removeLast() }
        case .character(let character) where character.isNumber || ".msMS".contains(character):
            timePrompt?.append(character)
        case .control("c"): return Reaction(quit: true)
        default: return .none
        }
        return .redraw
    }

    private mutating func editFilter(with key: Key, context: FrameInfo) -> Reaction {
        switch key {
        case .enter:
            editingFilter = false
        case .escape:
            editingFilter = false
            table.filter = ""
        case .backspace, .delete:
            if !table.filter.isEmpty { table.filter.removeLast() }
        case .character(let character):
            table.filter.append(character)
            table.selectedIndex = 0
            table.scroll = 0
        case .control("c"):
            return Reaction(quit: true)
        case .up, .down, .pageUp, .pageDown:
            editingFilter = false
            return handle(key, context: context)
        default:
            return .none
        }
        return .redraw
    }
}
