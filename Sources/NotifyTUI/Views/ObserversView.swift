import NotifyWire
import NotifyModel

/// View 2: every registration, in the spirit of `debugDescription`: id, name, observer, where the
/// handler runs, deliveries, token, callsite. Grouped by name, observer or thread (F5); also the
/// drill-down from a name. Enter opens one registration's deliveries.
enum ObserversView {
    /// `CartScreen@0x6000…` for target and owner registrations, `block in File.swift` or
    /// `sequence in File.swift` otherwise;
    /// for typed messages the kind and the subject filter: `message·async for Cart@0x6000…`.
    static func observerText(_ row: ObserverRow) -> String {
        if let message = MessageText.kind(row.kind) {
            guard let subject = row.objectFilter else { return message }
            return message + " for " + shortType(subject.typeName) + "@0x" + String(subject.address, radix: 16)
        }
        if let observer = row.observer {
            return shortType(observer.typeName) + "@0x" + String(observer.address, radix: 16)
        }
        return closureText(row.kind == .sequence ? "sequence" : "block", file: row.callsite.file)
    }

    /// `block in CartScreen.swift`: a closure has no observer object, so the file that registered
    /// it is what tells one block from another; just `block` when the callsite is unknown.
    static func closureText(_ kind: String, file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? ""
        return base.isEmpty || base == "?" ? kind : kind + " in " + base
    }

    /// `Demo.CartScreen` → `CartScreen`: the module rarely helps in a narrow column.
    static func shortType(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), !name.contains("<") else { return name }
        return String(name[name.index(after: dot)...])
    }

    /// Cells the OBSERVER column gets before NAME shares the rest: a long type and its address.
    static let observerIdeal = 36
    /// Cells the SITE column gets before NAME shares the rest: `…/DocumentEditor.swift:142` and more.
    static let siteIdeal = 36
    /// The least the name and observer columns keep when they yield cells to SITE.
    static let yieldingFloor = 10
    /// The cells the CENTER column grows to, as other identifiers grow to theirs, for a long label.
    static let centerWidest = 16
    /// The least the CENTER column keeps when cells are short: `center 9`, or a label's end.
    static let centerFloor = 8
    /// The least a name keeps when PEND and DROP follow SITE: free text yields to figures.
    static let nameFloorBeforeFigures = 8

    /// SITE's minimum: the widest file name and line among `rows` (`DocumentService.swift:18`), so
    /// a callsite is never cut inside its file name while free text has cells to give; at most
    /// ``siteIdeal``, at least 14.
    static func siteMinimum(_ rows: [ObserverRow]) -> Int {
        var widest = 14
        var last: UInt64?
        for row in rows where row.callsite.id != last {
            last = row.callsite.id
            let file = row.callsite.file.utf8
            let base = file.lastIndex(of: UInt8(ascii: "/")).map { file.distance(from: $0, to: file.endIndex) - 1 }
            // UTF-8 bytes: a cell or more each, so never less than the name needs.
            let digits = row.callsite.line < 10 ? 1 : row.callsite.line < 100 ? 2 : row.callsite.line < 1000 ? 3 : 5
            widest = max(widest, (base ?? file.count) + 1 + digits)
        }
        return min(siteIdeal, widest)
    }

    /// The label of `row`'s center among `labels`, or `center N` for one the header does not name.
    static func centerText(_ row: ObserverRow, _ labels: [String]) -> String {
        Int(row.center) < labels.count ? labels[Int(row.center)] : "center \(row.center)"
    }

    /// `main`, `posting`, `queue com.app.sync`, `thread worker`.
    static func targetText(_ row: ObserverRow) -> String {
        let label = row.targetLabel.map { " " + $0 } ?? ""
        switch row.target {
        case .posting: return "posting"
        case .main: return "main"
        case .operationQueue: return "opqueue" + label
        case .dispatchQueue: return "queue" + label
        case .thread: return "thread" + label
        case .task: return "task"
        }
    }

    /// `live`, or why it ended and, given the model's time, how long ago (`removed 12s ago`): an
    /// ended registration stays listed until the model retires it, about a minute of event time.
    static func stateText(_ row: ObserverRow, now: UInt64) -> String {
        let word = stateText(row)
        guard let removal = row.removal else { return word }
        let since = word + " " + Format.age(now >= removal.at ? now - removal.at : 0)
        return since.count + 4 <= stateWidth ? since + " ago" : since
    }

    /// `queue com.a…`: the kind of a delivery target and the start of its label.
    static let runsOnFloor = 11
    /// Fits `cancelled 12s ago` and `sender died 3m05s` (the longest drop the `ago`).
    static let stateWidth = 17
    /// The least STATE keeps when it yields: the longest reason, `sender died`, without its age.
    static let stateFloor = 11

    /// `live`, or why it ended.
    static func stateText(_ row: ObserverRow) -> String {
        guard let removal = row.removal else { return row.token.isDropped ? "orphaned" : "live" }
        switch removal.reason {
        case .explicit: return "removed"
        case .tokenCancelled: return "cancelled"
        case .observerDeallocated: return "owner died"
        case .objectDeallocated: return "sender died"
        case .sequenceEnded: return "ended"
        case .centerDeallocated: return "center died"
        }
    }

    /// What rows are grouped by: the name, the observer or the delivery target.
    static func groupText(_ row: ObserverRow, _ grouping: ObserverGrouping) -> String {
        switch grouping {
        case .name: row.displayName
        case .observer: observerText(row)
        case .thread: targetText(row)
        }
    }

    static func rowStyle(_ row: ObserverRow) -> Style? {
        if !row.isLive { return .dim }
        if row.token.isDropped || row.capturesObserverStrongly || row.droppedMessages > 0 { return .warning }
        return nil
    }

    /// - Parameter rows: The rows shown, when known: SITE keeps room for their file names and lines.
    /// - Parameter allColumns: Every column the view can have, PEND, DROP and CENTER too whatever
    ///   the stream: the titles a sort option may name.
    static func spec(
        _ data: DashboardData, grouping: ObserverGrouping?, ascii: Bool, rows: [ObserverRow] = [],
        allColumns: Bool = false
    ) -> TableSpec<ObserverRow> {
        let now = data.model.now
        // PEND and DROP follow SITE: names, the observer (which holds a folded name group's count)
        // and a thread group yield toward them too; an observer group and its count keep their width.
        let figuresFollow = allColumns || data.model.totals.messageRegistrations > 0
        let nameFloor = figuresFollow ? nameFloorBeforeFigures : yieldingFloor
        var columns: [TableColumn<ObserverRow>] = []
        // Closure literals, not stored closures: a stored `(ObserverRow) -> …` reached through the
        // table's generic signature goes through a thunk that copies the whole row per call, and
        // the sort calls these for all 10k rows every frame.
        if let grouping {
            var group = TableColumn<ObserverRow>(
                grouping.rawValue.uppercased(), .flexible(min: 14),
                text: { groupText($0, grouping) },
                sortKey: { .text(groupText($0, grouping)) })
            // The group names its rows once, like a tree, so it is as identifying as the SITE.
            group.identifies(ideal: observerIdeal, grouping == .observer ? .object : .end)
            // Names are free text; an observer or a thread identifies the group.
            if grouping == .name { group.floor = nameFloor }
            if figuresFollow, grouping == .thread { group.floor = runsOnFloor }
            columns.append(group)
        }
        // After the `b` mark, ID leads with `+` (added since) or `−` (live then, ended since).
        let mark = data.status.registrationMark
        var id = TableColumn<ObserverRow>(
            "ID", .fixed(mark == nil ? 6 : 7), alignRight: true, descendingFirst: false,
            text: { row in (mark?.marker(row, ascii: ascii) ?? "") + "#\(row.id)" },
            sortKey: { .number(Double($0.id)) }, style: rowStyle)
        // The grouped view's default sort: keys for all rows in one pass, with no copy per row.
        id.sortKeys = { rows in rows.map { .number(Double($0.id)) } }
        columns.append(id)
        if grouping != .name {
            var name = TableColumn<ObserverRow>(
                "NAME", .flexible(min: 16), text: { $0.displayName }, sortKey: { .text($0.displayName) },
                style: rowStyle)
            // The first of NAME and OBSERVER holds a group's `12 registrations`: it keeps its width.
            if grouping == nil { name.floor = nameFloor }
            columns.append(name)
        }
        if grouping != .observer {
            var observer = TableColumn<ObserverRow>(
                "OBSERVER", .flexible(min: 12), text: observerText,
                sortKey: { .text(observerText($0)) }, style: rowStyle)
            observer.identifies(ideal: observerIdeal, .object)
            if grouping != .name || figuresFollow { observer.floor = yieldingFloor }
            columns.append(observer)
        }
        columns.append(
            TableColumn(
                "DELIV", .fixed(6), alignRight: true, text: { Format.count($0.deliveries) },
                sortKey: { .number(Double($0.deliveries)) }, style: rowStyle))
        var state = TableColumn<ObserverRow>(
            "STATE", .fixed(stateWidth), text: { stateText($0, now: now) }, sortKey: { .text(stateText($0)) },
            style: { $0.token.isDropped && $0.isLive ? .warning : rowStyle($0) })
        // `sender died 3m05s` → `sender died`: the age goes before the figures after SITE.
        state.floor = stateFloor
        state.shortening = .words
        columns.append(state)
        if grouping != .thread {
            var runsOn = TableColumn<ObserverRow>(
                "RUNS ON", .fixed(16), text: targetText, sortKey: { .text(targetText($0)) }, style: rowStyle)
            runsOn.floor = runsOnFloor
            columns.append(runsOn)
        }
        columns += [
            TableColumn(
                "AGE", .fixed(6), alignRight: true, text: { Format.age($0.age(at: now)) },
                sortKey: { .number(Double($0.age(at: now))) }, style: rowStyle),
            TableColumn(
                "TOKEN", .fixed(9), text: { $0.token.description }, sortKey: { .text($0.token.description) },
                style: rowStyle),
        ]
        // SITE keeps its rows' file names and lines; the name and observer grow next, then all share.
        let siteWidth = siteMinimum(rows)
        var site = TableColumn<ObserverRow>(
            "SITE", .flexible(min: siteWidth), text: { $0.callsite.description },
            sortKey: { .text($0.callsite.description) }, style: rowStyle)
        site.identifies(ideal: rows.isEmpty ? siteIdeal : siteWidth, .path)
        columns.append(site)
        if figuresFollow {
            // Only once typed messages appear: their mailbox or buffer depth and its drops. Last, so
            // the other columns keep their positions (a sort option picks those by position).
            columns += [
                TableColumn(
                    "PEND", .fixed(7), alignRight: true, text: MessageText.pending,
                    sortKey: { .number(Double($0.pendingMessages)) }, style: rowStyle),
                TableColumn(
                    "DROP", .fixed(5), alignRight: true,
                    text: { MessageText.queues($0) ? Format.count($0.droppedMessages) : "-" },
                    sortKey: { .number(Double($0.droppedMessages)) },
                    style: { $0.droppedMessages > 0 ? .warning : rowStyle($0) }),
            ]
        }
        if let centers = data.model.centers ?? (allColumns ? [] : nil) {
            // Only when the stream carries several centers; last, like PEND and DROP, so the other
            // columns keep their positions.
            // Its labels, and `center N` for a row on a center the header does not name.
            let unnamed = rows.lazy.filter { Int($0.center) >= centers.count }.map { "center \($0.center)" }
            let widest = (centers + unnamed).lazy.map(DisplayWidth.of).max() ?? 0
            let ideal = min(centerWidest, max(6, widest))
            var center = TableColumn<ObserverRow>(
                "CENTER", .flexible(min: min(centerFloor, ideal)), text: { centerText($0, centers) },
                sortKey: { .text(centerText($0, centers)) }, style: rowStyle)
            // It grows toward its labels with the other identifiers; a label it cannot hold loses
            // its start, since one stream's labels often share theirs (`app`, `app.sync`).
            center.identifies(ideal: ideal, .path)
            columns.append(center)
        }
        var spec = TableSpec(
            columns: columns, key: { .registration($0.id) }, defaultSort: grouping == nil ? 0 : 1,
            emptyMessage: "no registrations yet")
        if let grouping {
            spec.groupBy = { .text(groupText($0, grouping)) }
            spec.groupKeys = { rows in rows.map { .text(groupText($0, grouping)) } }
        }
        if grouping != nil { spec.summary = summary(titles: columns.map(\.title)) }
        return spec
    }

    /// The top-level Observers view.
    static func draw(
        _ data: DashboardData, grouping: ObserverGrouping, folding: GroupFolding, state: TableState, rect: Rect,
        glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        let rows = data.model.registrations
        return TableWidget.render(
            rows, spec: spec(data, grouping: grouping, ascii: glyphs == .ascii, rows: rows),
            state: state, into: &canvas, rect: rect, glyphs: glyphs,
            extras: TableExtras(folding: folding))
    }

    /// The observers of one name (drill-down from Names).
    static func draw(
        _ data: DashboardData, name: String, state: TableState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        let rows = data.model.observers(of: name)
        return TableWidget.render(
            rows, spec: spec(data, name: name, ascii: glyphs == .ascii, rows: rows),
            state: state, into: &canvas, rect: rect, glyphs: glyphs)
    }

    /// The drill-down's columns: the name is in the breadcrumb, so no NAME column.
    static func spec(
        _ data: DashboardData, name: String, ascii: Bool, rows: [ObserverRow] = []
    ) -> TableSpec<ObserverRow> {
        var spec = spec(data, grouping: nil, ascii: ascii, rows: rows)
        spec.columns.removeAll { $0.title == "NAME" }
        spec.emptyMessage = "no observers of \(name)"
        return spec
    }
}

extension ObserversView {
    /// A folded group's one row: how many registrations it holds, how many are live and their
    /// deliveries summed, under the columns these titles name.
    static func summary(titles: [String]) -> @Sendable ([ObserverRow]) -> [String] {
        { members in
            let live = members.filter(\.isLive).count
            let deliveries = members.reduce(UInt64(0)) { $0 + $1.deliveries }
            var placedCount = false
            return titles.enumerated().map { index, title in
                switch title {
                case _ where index == 0: return ""
                case "NAME", "OBSERVER":
                    guard !placedCount else { return "" }
                    placedCount = true
                    return "\(members.count) registration\(members.count == 1 ? "" : "s")"
                case "DELIV": return Format.count(deliveries)
                case "STATE": return "\(live) live"
                case "DROP": return Format.count(members.reduce(UInt64(0)) { $0 + $1.droppedMessages })
                default: return ""
                }
            }
        }
    }
}
