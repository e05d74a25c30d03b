extension ViewState {
    /// `m`, `C`, `w` in a log view; elsewhere a notice says where they work.
    mutating func reduceLog(_ action: Action, context: FrameInfo) -> Reaction {
        guard let clock = context.logClock else {
            notice = Notice("marks, clear and wrap work in the logs: views 3, 5 and 6", isError: true)
            return .redraw
        }
        switch action {
        case .dropMark:
            log.mark(at: clock)
            notice = Notice("mark \(log.marks.last?.number ?? 0) at \(clock.label)")
        case .toggleClear:
            log.toggleClear(at: clock)
            table.follow = true
            notice = Notice(log.clearedThrough == nil ? "showing the whole log again" : "cleared up to \(clock.label)")
        case .toggleWrap:
            log.wrap.toggle()
        default:
            return .none
        }
        return .redraw
    }

    /// `o`, `O` in the grouped Observers view: fold groups to summary rows; the selection stays on
    /// the group it was in.
    mutating func reduceFolding(_ action: Action, context: FrameInfo) -> Reaction {
        guard view == .observers, path.isEmpty else {
            notice = Notice("o and O fold groups of the grouped Observers view (2)", isError: true)
            return .redraw
        }
        var state = folding[grouping] ?? GroupFolding()
        if action == .toggleAllGroups {
            state.toggleAll()
        } else if let group = context.selectedGroup {
            state.toggle(group)
        } else {
            return .none
        }
        folding[grouping] = state
        if let group = context.selectedGroup {
            // A folded group is one row keyed by its name; an unfolded one is found by its name too.
            table.selectedKey = .group(group)
            table.selectedIndex = context.selectedIndex
        }
        return .redraw
    }
}
