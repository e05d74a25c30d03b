import NotifyModel

extension Dashboard {
    /// Every row of the table on screen (after filter and sort), for Ctrl-S: the same rows and
    /// columns ``render(_:view:size:glyphs:keymap:)`` draws, uncut. The lanes layout saves the
    /// merged log, which holds the same deliveries with a thread column.
    package static func content(_ data: DashboardData, view: ViewState, glyphs: Glyphs) -> TableContent {
        let state = view.table
        let ascii = glyphs == .ascii
        let name = view.view.title.lowercased()
        let extras = logExtras(data, view: view)
        switch view.path.last {
        case .name(let drilled)?:
            return TableWidget.content(
                data.model.observers(of: drilled),
                spec: ObserversView.spec(data, name: drilled, ascii: ascii), state: state, view: name)
        case .registration(let id)?:
            return TableWidget.content(
                ThreadsView.entries(data, threads: nil, registration: id),
                spec: ThreadsView.logSpec(data, showThread: true, ascii: ascii), state: state,
                view: name)
        case .warning(let key)?:
            let (title, lines) = LeakDetailView.lines(data, key: key, width: 100, glyphs: glyphs)
            return TableWidget.content(lines, spec: DetailLine.spec(title: title), state: state, view: name)
        case .thread(let id)?:
            return TableWidget.content(
                ThreadsView.entries(data, threads: [id]),
                spec: ThreadsView.logSpec(data, showThread: false, ascii: ascii), state: state,
                view: name, extras: extras, glyphs: glyphs)
        case .explainEvent?, .explainRegistration?, .explainName?:
            let level = view.path.last!
            return TableWidget.content(
                ExplainView.rows(data, level, ascii: ascii), spec: ExplainView.spec, state: state, view: name)
        case .cascade?, .postedBy?:
            return TableWidget.content(
                CascadeView.rows(data, view.path.last!, glyphs: glyphs),
                spec: CascadeView.spec(ascii: ascii, level: view.path.last!), state: state, view: name)
        case .explainFinding(let key)?:
            return TableWidget.content(
                FindingEffectsView.rows(data, key: key), spec: FindingEffectsView.spec(ascii: ascii), state: state,
                view: name)
        case nil:
            switch view.view {
            case .names:
                return TableWidget.content(
                    NamesView.rows(data),
                    spec: NamesView.spec(
                        now: data.model.now, ascii: ascii, sinceAttach: data.model.beganLate,
                        since: data.status.registrationMark?.changes(data.model)),
                    state: state, view: name)
            case .observers:
                return TableWidget.content(
                    data.model.registrations,
                    spec: ObserversView.spec(data, grouping: view.grouping, ascii: ascii),
                    state: state, view: name)
            case .threads:
                var merged = view
                merged.threadLayout = .merged
                return TableWidget.content(
                    ThreadsView.entries(data, threads: nil),
                    spec: ThreadsView.logSpec(data, showThread: true, ascii: ascii),
                    state: merged.table, view: name, extras: extras, glyphs: glyphs)
            case .leaks:
                return TableWidget.content(
                    LeakGroup.groups(data.model.findings),
                    spec: LeaksView.spec(now: data.model.now, known: data.status.knownFindings),
                    state: state,
                    view: name)
            case .log:
                return TableWidget.content(
                    ActionLogView.rows(data.actions), spec: ActionLogView.spec, state: state,
                    view: name, extras: extras, glyphs: glyphs)
            case .events:
                return TableWidget.content(
                    data.tail.events.map { EventsView.row($0, data) }, spec: EventsView.spec,
                    state: state, view: name, extras: extras, glyphs: glyphs)
            }
        }
    }
}
