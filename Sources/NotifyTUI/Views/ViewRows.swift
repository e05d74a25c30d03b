package import NotifyWire
package import NotifyModel

/// The rows a top-level view shows, after its filter and sort, as data rather than cells.
///
/// Why: batch JSON output and exports must list exactly what the screen lists, so they go
/// through the same items, filter and sort as the views instead of re-implementing them.
package enum ViewRows: Sendable {
    /// View 1: names.
    case names([NameRow])
    /// View 2: registrations (grouped as the view groups them).
    case observers([ObserverRow])
    /// View 3: the merged delivery log, oldest first.
    case deliveries([DeliveryLine])
    /// View 4: findings, one per signature.
    case leaks([LeakGroup])
    /// View 5: the raw event tail, oldest first.
    case events([EventLine])
    /// View 6: what notifytop did, oldest first.
    case actions([ActionLog.Entry])

    /// One delivery of the Threads log, with thread names resolved as the screen shows them.
    package struct DeliveryLine: Sendable {
        /// The delivery.
        package var entry: DeliveryLogEntry
        /// The thread the handler ran on.
        package var thread: String
        /// The thread that posted.
        package var postedOn: String
    }

    /// One line of the Events view: the event and its screen text.
    package struct EventLine: Sendable {
        /// The raw event.
        package var event: TraceEvent
        /// The thread's display name, empty when the event has none.
        package var thread: String
        /// The event kind (`post`, `deliver`, …).
        package var kind: String
        /// The DETAIL column's text.
        package var detail: String
    }

    /// The rows of `view`'s top-level table, filtered and sorted by its table state.
    package static func ordered(_ data: DashboardData, view: ViewState) -> ViewRows {
        let state = view.table
        switch view.view {
        case .names:
            return .names(
                TableWidget.order(
                    NamesView.rows(data),
                    spec: NamesView.spec(
                        now: data.model.now, ascii: false, sinceAttach: data.model.beganLate,
                        since: data.status.registrationMark?.changes(data.model)),
                    state: state))
        case .observers:
            return .observers(
                TableWidget.order(
                    data.model.registrations,
                    spec: ObserversView.spec(data, grouping: view.grouping, ascii: false),
                    state: state))
        case .threads:
            let entries = TableWidget.order(
                ThreadsView.entries(data, threads: nil),
                spec: ThreadsView.logSpec(data, showThread: true, ascii: false), state: state)
            return .deliveries(entries.map { DeliveryLine(entry: $0.entry, thread: $0.thread, postedOn: $0.poster) })
        case .leaks:
            return .leaks(
                TableWidget.order(
                    LeakGroup.groups(data.model.findings),
                    spec: LeaksView.spec(now: data.model.now, known: data.status.knownFindings),
                    state: state))
        case .events:
            let rows = TableWidget.order(
                data.tail.events.map { EventsView.row($0, data) }, spec: EventsView.spec,
                state: state)
            return .events(rows.map { EventLine(event: $0.event, thread: $0.thread, kind: $0.kind, detail: $0.detail) })
        case .log:
            return .actions(
                TableWidget.order(ActionLogView.rows(data.actions), spec: ActionLogView.spec, state: state)
                    .map(\.entry))
        }
    }

    /// The titles of the columns `view` can be sorted by, lower-cased, in column order: every
    /// column it can have, those it shows only for some streams (Observers' CENTER, PEND, DROP)
    /// too. With `baseline` (`--baseline`), the Leaks view shows its NEW column first.
    package static func sortableColumns(
        of view: ViewID, grouping: ObserverGrouping = .name, baseline: Bool = false
    ) -> [String] {
        columns(of: view, grouping: grouping, baseline: baseline, all: true).filter(\.sortable).map(\.title)
    }

    /// The titles of every column `view` can have, as `/` filter fields name them: those only some
    /// streams show too, so a filter on one of them is not refused before it appears.
    package static func filterFields(of view: ViewID, grouping: ObserverGrouping = .name, baseline: Bool = false)
        -> [String]
    {
        columns(of: view, grouping: grouping, baseline: baseline, all: true).map(\.title)
    }

    /// The table state that sorts `view` by the column titled `title` (case-insensitive), biggest
    /// first when `descending`, else in the column's natural order; nil when the view can have no
    /// such sortable column. A column every stream shows is picked by its position (with
    /// `baseline`, the Leaks view's NEW column is the first); one only some streams show
    /// (Observers' CENTER) is requested by title, and sorts from the frame it appears in.
    package static func sorting(
        _ view: ViewID, byColumn title: String, descending: Bool? = nil, grouping: ObserverGrouping = .name,
        baseline: Bool = false
    ) -> TableState? {
        let title = title.lowercased()
        let always = columns(of: view, grouping: grouping, baseline: baseline, all: false)
        if let index = always.firstIndex(where: { $0.sortable && $0.title == title }) {
            var state = TableState(sortColumn: index)
            if let descending { state.inverted = descending != always[index].descendingFirst }
            return state
        }
        guard sortableColumns(of: view, grouping: grouping, baseline: baseline).contains(title) else { return nil }
        var state = TableState()
        state.requestedSort = RequestedSort(title: title, descending: descending)
        return state
    }

    /// The columns of `view` on an empty model, or with `all` every column it can have.
    private static func columns(of view: ViewID, grouping: ObserverGrouping, baseline: Bool, all: Bool) -> [(
        title: String, sortable: Bool, descendingFirst: Bool
    )] {
        func describe<Item>(_ spec: TableSpec<Item>) -> [(title: String, sortable: Bool, descendingFirst: Bool)] {
            spec.columns.map { ($0.title.lowercased(), $0.sortKey != nil, $0.descendingFirst) }
        }
        var empty = DashboardData(model: InspectorState(), status: SessionStatus(mode: .live))
        if baseline { empty.status.knownFindings = [] }
        switch view {
        case .names: return describe(NamesView.spec(now: 0, ascii: false, since: all ? [:] : nil))
        case .observers:
            return describe(ObserversView.spec(empty, grouping: grouping, ascii: false, allColumns: all))
        case .threads: return describe(ThreadsView.logSpec(empty, showThread: true, ascii: false))
        case .leaks: return describe(LeaksView.spec(now: 0, known: empty.status.knownFindings))
        case .events: return describe(EventsView.spec)
        case .log: return describe(ActionLogView.spec)
        }
    }
}
