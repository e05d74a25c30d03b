import NotifyWire
package import NotifyModel

/// Everything one frame is rendered from: the model's fold, the raw event tail and the session's
/// status. A plain value, so a paused screen is a saved copy and a test builds one by hand.
package struct DashboardData: Sendable {
    /// The fold of every event so far.
    package var model: InspectorState
    /// The last raw events, for the Events view.
    package var tail: EventTail
    /// Pause, recording, replay, delay, own CPU.
    package var status: SessionStatus
    /// What notifytop itself did (view 6).
    package var actions: ActionLog
    /// Every inspectable process (view 0); nil when the session watches one target only.
    package var overview: [OverviewRow]?
    /// Where the overview's processes put their sockets, as messages name it; nil before a listing.
    package var overviewDirectory: String?
    /// What the empty overview says instead of how to make a NotifyKit app inspectable (the
    /// overview of another kind of process); nil for the usual text.
    package var overviewEmptyMessage: String?
    /// Processes the overview's listing names but does not follow, ``overviewLimit`` being
    /// followed already.
    package var overviewNotShown = 0
    /// The most processes the overview follows.
    package var overviewLimit = 0

    /// Creates frame data.
    package init(
        model: InspectorState, tail: EventTail = EventTail(), status: SessionStatus, actions: ActionLog = ActionLog()
    ) {
        self.model = model
        self.tail = tail
        self.status = status
        self.actions = actions
    }

    /// A thread's display name: `main`, `worker-2`, `worker-2#5` when another thread has the same
    /// name, or `#5` when unknown.
    func threadName(_ id: UInt64) -> String {
        guard let thread = model.thread(id) else { return "#\(id)" }
        if thread.isMain { return "main" }
        if thread.name.isEmpty { return "#\(id)" }
        return model.threadNameIsShared(thread.name) ? "\(thread.name)#\(id)" : thread.name
    }

    /// Nanoseconds of stream time since the stream started (the header's clock base, or a
    /// replay's start).
    func streamOffset(_ time: UInt64) -> UInt64 {
        let base = status.clockBase ?? model.header?.clockMono ?? 0
        return time >= base ? time - base : 0
    }
}
