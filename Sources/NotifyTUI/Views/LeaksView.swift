import NotifyWire
import NotifyModel

/// View 4: the leak rules' findings, open first by severity, each with its rule, what it is about,
/// how often, and where. Enter opens the evidence and the fix.
enum LeaksView {
    static func severityStyle(_ finding: LeakFinding) -> Style {
        guard finding.isOpen else { return .dim }
        switch finding.severity {
        case .error: return .error
        case .warning: return .warning
        case .info: return .info
        }
    }

    /// The table, one row per signature; with `known` signatures (a baseline), a first column
    /// marks `NEW` each row whose signature is not among them.
    static func spec(now: UInt64, known: Set<LeakSignature>? = nil) -> TableSpec<LeakGroup> {
        let newColumn = known.map { known in
            TableColumn<LeakGroup>(
                "NEW", .fixed(4), descendingFirst: true, text: { known.contains($0.signature) ? "" : "NEW" },
                sortKey: { .number(known.contains($0.signature) ? 0 : 1) }, style: { severityStyle($0.finding) })
        }
        return TableSpec(
            columns: (newColumn.map { [$0] } ?? []) + [
                TableColumn(
                    "SEV", .fixed(7), descendingFirst: true,
                    text: { $0.finding.isOpen ? $0.finding.severity.description : "fixed" },
                    sortKey: { .number(severityRank($0.finding)) },
                    style: { severityStyle($0.finding) }),
                TableColumn(
                    "RULE", .fixed(25), text: { "\($0.finding.rule.code) \($0.finding.rule.title)" },
                    sortKey: { .number(Double($0.finding.rule.number)) }, style: { severityStyle($0.finding) }),
                TableColumn(
                    "WHAT", .flexible(min: 20), text: { $0.finding.summary }, sortKey: { .text($0.finding.summary) }),
                TableColumn(
                    "N", .fixed(3), alignRight: true, text: { "\($0.count)" },
                    sortKey: { .number(Double($0.count)) }),
                TableColumn(
                    "COUNT", .fixed(6), alignRight: true, text: { Format.count($0.occurrences) },
                    sortKey: { .number(Double($0.occurrences)) }),
                TableColumn(
                    "AGE", .fixed(6), alignRight: true, text: { Format.age(age($0.finding, now: now)) },
                    sortKey: { .number(Double(age($0.finding, now: now))) }),
                TableColumn(
                    "SITE", .fixed(30), text: { $0.finding.evidence.callsite?.description ?? "-" },
                    sortKey: { .text($0.finding.evidence.callsite?.description ?? "") }),
            ],
            key: { .warning($0.finding.key.description) }, defaultSort: newColumn == nil ? 0 : 1,
            emptyMessage: "no leak warnings: every observer looks healthy")
    }

    /// Fixed below info, then by severity.
    private static func severityRank(_ finding: LeakFinding) -> Double {
        finding.isOpen ? Double(finding.severity.rawValue + 1) : 0
    }

    private static func age(_ finding: LeakFinding, now: UInt64) -> UInt64 {
        now >= finding.firstSeen ? now - finding.firstSeen : 0
    }

    static func draw(
        _ data: DashboardData, state: TableState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        TableWidget.render(
            LeakGroup.groups(data.model.findings), spec: spec(now: data.model.now, known: data.status.knownFindings),
            state: state, into: &canvas, rect: rect, glyphs: glyphs)
    }
}

/// A scrollable list of text lines, some of which drill somewhere (a registration).
struct DetailLine: Sendable {
    var text: String
    var style: Style = .normal
    var key: RowKey

    static func lines(_ items: [(String, Style, RowKey?)]) -> [DetailLine] {
        items.enumerated().map { offset, item in
            DetailLine(text: item.0, style: item.1, key: item.2 ?? .line(offset))
        }
    }

    static func spec(title: String) -> TableSpec<DetailLine> {
        TableSpec<DetailLine>(
            columns: [TableColumn(title, .flexible(min: 10), text: { $0.text }, style: { $0.style })],
            key: { $0.key }, emptyMessage: "gone: no longer tracked")
    }

    static func draw(
        _ lines: [DetailLine], title: String, state: TableState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        TableWidget.render(lines, spec: spec(title: title), state: state, into: &canvas, rect: rect, glyphs: glyphs)
    }
}

/// A finding's evidence, its fix, and the registrations involved (Enter opens one).
enum LeakDetailView {
    /// What the breadcrumb calls a warning: its rule, name and site as the table shows them
    /// (`R8 THREAD_MISMATCH "CartDidChange" Shop.swift:42`), not its internal key.
    static func crumb(_ data: DashboardData, key: String) -> String {
        guard let finding = data.model.findings.first(where: { $0.key.description == key }) else { return key }
        var parts = [finding.rule.description]
        if let name = finding.evidence.name { parts.append("\"\(name)\"") }
        if let site = finding.evidence.callsite { parts.append(site.description) }
        return parts.joined(separator: " ")
    }

    static func draw(
        _ data: DashboardData, key: String, state: TableState, rect: Rect, glyphs: Glyphs, into canvas: inout Canvas
    ) -> FrameInfo {
        let (title, lines) = lines(data, key: key, width: rect.width, glyphs: glyphs)
        return DetailLine.draw(lines, title: title, state: state, rect: rect, glyphs: glyphs, into: &canvas)
    }

    /// The detail's title and lines, wrapped to `width`: what the view shows and Ctrl-S saves.
    static func lines(_ data: DashboardData, key: String, width: Int, glyphs: Glyphs) -> (String, [DetailLine]) {
        guard let finding = data.model.findings.first(where: { $0.key.description == key }) else { return (key, []) }
        let now = data.model.now
        let evidence = finding.evidence
        let ascii = glyphs == .ascii
        var items: [(String, Style, RowKey?)] = []
        let status = finding.isOpen ? "open" : "resolved after " + Format.age(finding.resolvedAfter ?? 0)
        items.append(
            (
                "\(finding.severity)  \(status)  first seen \(Format.age(now >= finding.firstSeen ? now - finding.firstSeen : 0)) ago, \(finding.occurrences)×",
                LeaksView.severityStyle(finding), nil
            ))
        for line in DisplayWidth.wrap(finding.summary, to: max(10, width - 1)) { items.append((line, .value, nil)) }
        items.append(("", .normal, nil))
        items.append(("Evidence", .label, nil))
        let fields = evidence.fields(
            duration: { Format.duration($0, ascii: ascii) }, thread: data.threadName, arrow: ascii ? " -> " : " → ",
            rule: finding.rule)
        for (label, value) in fields {
            items.append(("  " + DisplayWidth.fit(label, to: 18) + value, .normal, nil))
        }
        items.append(("", .normal, nil))
        items.append(("Fix", .label, nil))
        for line in DisplayWidth.wrap(finding.fix, to: max(10, width - 3)) { items.append(("  " + line, .ok, nil)) }
        if !evidence.registrations.isEmpty {
            items.append(("", .normal, nil))
            items.append(("Registrations (Enter opens one)", .label, nil))
            for id in evidence.registrations.reversed() {
                if let row = data.model.registration(id) {
                    items.append(
                        (
                            "  #\(id) \(ObserversView.observerText(row)) \(row.displayName)  \(ObserversView.stateText(row))  \(row.deliveries) deliveries  \(row.callsite)",
                            ObserversView.rowStyle(row) ?? .normal, .registration(id)
                        ))
                } else {
                    items.append(("  #\(id) (no longer tracked)", .dim, nil))
                }
            }
        }
        return (finding.rule.description, DetailLine.lines(items))
    }
}
