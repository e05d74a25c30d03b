/// Everything a key can ask for. Keys map to actions through ``Keymap``; actions change only
/// ``ViewState`` (through ``ViewState/reduce(_:context:)``) or ask the session for an effect
/// through ``Reaction/command``.
package enum Action: Sendable, Hashable {
    /// Leave notifytop.
    case quit
    /// Show or hide the key help.
    case toggleHelp
    /// Show one view.
    case show(ViewID)
    /// Tab.
    case nextView
    /// Show the process overview (view 0).
    case showOverview
    /// Shift-Tab.
    case previousView
    /// Selection up one row.
    case moveUp
    /// Selection down one row.
    case moveDown
    /// Selection up one page.
    case pageUp
    /// Selection down one page.
    case pageDown
    /// First row.
    case home
    /// Last row (and follow, in logs).
    case end
    /// Open the selected row.
    case drillDown
    /// Close the innermost drill-down.
    case back
    /// Start typing a filter.
    case editFilter
    /// Start typing a search (F3).
    case editSearch
    /// Select the next row matching the search.
    case nextMatch
    /// Select the previous row matching the search.
    case previousMatch
    /// Open the `:` command palette.
    case openPalette
    /// Give the table the whole screen, or restore the layout.
    case toggleExpand
    /// Save every row of the current table to a file (Ctrl-S), in the last chosen format.
    case exportView
    /// Save the screen as text plus an ANSI-coloured copy, for bug reports.
    case dumpScreen
    /// Sort by the next column.
    case sortNext
    /// Sort by the previous column.
    case sortPrevious
    /// Reverse the sort order.
    case invertSort
    /// Observers: regroup by name, observer or thread. Threads: lanes or merged.
    case regroup
    /// Logs: keep the newest line in view.
    case toggleFollow
    /// Mark the registration set now: Names and Observers show what came and went since.
    case markRegistrations
    /// Logs: drop a numbered mark at the log's current time (k9s `m`).
    case dropMark
    /// Logs: hide everything up to now, or show it again (k9s Shift-C, undoable).
    case toggleClear
    /// Logs: wrap long cells onto continuation lines, or cut them again (k9s `w`).
    case toggleWrap
    /// Grouped Observers: fold the selected row's group to one summary row, or unfold it.
    case toggleGroup
    /// Grouped Observers: fold every group, or unfold all.
    case toggleAllGroups
    /// Freeze the screen (live) or the replay clock (replay); collection continues.
    case togglePause
    /// Start or stop recording a session log.
    case toggleRecording
    /// `--foundation`: switch the probes between counting in the kernel and every event as a line.
    case toggleProbeMode
    /// Redraw more often.
    case faster
    /// Redraw less often.
    case slower
    /// Replay: apply one more event.
    case stepEvent
    /// Replay: advance one second.
    case stepSecond
    /// Replay: go back one event (folds again from the start).
    case stepBackEvent
    /// Replay: go back one second (folds again from the start).
    case stepBackSecond
    /// Replay: ask for a time in the status line and go there.
    case goToTime
    /// Replay: double the speed.
    case speedUp
    /// Replay: halve the speed.
    case speedDown
    /// Repaint the whole screen (Ctrl-L).
    case redraw
    /// Explain the selected post (Events) or registration (Observers): why each observer ran or not.
    case explain
    /// Show the selected post's cascade: its deliveries and the posts their handlers made.
    case cascade
    /// Show who posted the selected delivery's or post's post, up to the root.
    case postedBy
}

/// What the run loop must do after a key: redraw, quit, or carry out a session command.
package struct Reaction: Sendable, Hashable {
    /// The screen should be rendered again.
    package var redraw: Bool
    /// The loop should end.
    package var quit: Bool
    /// An effect outside the view state, for the session to carry out.
    package var command: SessionCommand?

    /// Creates a reaction.
    package init(redraw: Bool = false, quit: Bool = false, command: SessionCommand? = nil) {
        self.redraw = redraw
        self.quit = quit
        self.command = command
    }

    /// Nothing to do (an unbound key).
    package static let none = Reaction()
    /// Render again.
    package static let redraw = Reaction(redraw: true)
}

/// Effects a key asks of the session, which owns the event source, the recorder and the clock.
package enum SessionCommand: Sendable, Hashable {
    /// Freeze or unfreeze the displayed state (live), or the replay clock (replay).
    case togglePause
    /// Attach the views to the process with this pid (Enter in the overview).
    case attach(Int32)
    /// Start or stop recording.
    case toggleRecording
    /// Switch `--foundation`'s probes to the other mode.
    case toggleProbeMode
    /// Mark the live registration set now.
    case markRegistrations
    /// Multiply the redraw delay by this factor.
    case scaleDelay(Double)
    /// Replay: apply this many events at once.
    case stepEvents(Int)
    /// Replay: advance the replay clock by this many seconds.
    case stepSeconds(Double)
    /// Replay: multiply the speed by this factor.
    case scaleSpeed(Double)
    /// Replay: go back this many events.
    case stepBackEvents(Int)
    /// Replay: go back this many seconds.
    case stepBackSeconds(Double)
    /// Replay: go to this many nanoseconds after the recording's clock base.
    case goToTime(UInt64)
    /// Repaint everything.
    case repaint
    /// Save the current table in this format.
    case export(ExportFormat)
    /// Save the screen as text and ANSI.
    case dumpScreen
    /// Switch the terminal's colour scheme.
    case setTheme(Theme)
    /// Add an entry to the action log (a filter that could not be used).
    case logAction(ActionLog.Kind, String)
}
