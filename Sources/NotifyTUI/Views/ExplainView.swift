import NotifyWire
import NotifyModel

/// The `x` pane: why each registration did or did not run for the selected post (Events), or
/// for each kept post of the selected registration's name (Observers). One row per verdict; the
/// rows sort and filter like every table. A post a notification queue merged enqueues into has a
/// `coalesced` row per call site of the merged enqueues, above its verdicts.
enum ExplainView {
    struct Row: Sendable {
        var post: UInt64
        var postName: String
        /// nil on a `coalesced` row, which is about the post, not a registration.
        var registration: UInt64?
        var name: String
        var site: String
        var reason: String
        var detail: String
        var index: Int
    }

    /// The verdict rows of `level`, in the explanation's order.
    static func rows(_ data: DashboardData, _ level: DrillLevel, ascii: Bool = false) -> [Row] {
        let posts: [PostExplanation]
        switch level {
        case .explainEvent(let seq):
            posts = explanation(data, eventSeq: seq)
        case .explainRegistration(let id):
            posts = data.model.explain(registration: id)?.posts ?? []
        case .explainName(let name):
            posts = data.model.explain(name: name).posts.suffix(1)
        default:
            posts = []
        }
        var rows: [Row] = []
        for explained in posts {
            appendCoalesced(explained, ascii: ascii, to: &rows)
            let post = explained.post
            for verdict in explained.considered {
                rows.append(
                    Row(
                        post: post.seq, postName: post.name, registration: verdict.registration, name: verdict.name,
                        site: verdict.site?.description ?? "?", reason: verdict.reason.rawValue,
                        detail: verdict.detail, index: rows.count))
            }
            if let later = explained.registeredLater {
                rows.append(
                    Row(
                        post: post.seq, postName: post.name, registration: nil, name: post.name, site: "",
                        reason: "registered-after", detail: later.summary, index: rows.count))
            }
        }
        return rows
    }

    /// One row per call site whose enqueues were merged into `post` (one without a site when the
    /// trace, before 1.5, only counts them).
    private static func appendCoalesced(_ explained: PostExplanation, ascii: Bool, to rows: inout [Row]) {
        guard let total = explained.coalesced else { return }
        let post = explained.post
        func row(site: String, detail: String) -> Row {
            Row(
                post: post.seq, postName: post.name, registration: nil, name: post.name, site: site,
                reason: "coalesced", detail: detail, index: rows.count)
        }
        guard !explained.coalescedSites.isEmpty else {
            rows.append(
                row(
                    site: "?",
                    detail: "\(total) merged enqueues of this name; the trace does not carry their sites"))
            return
        }
        for merged in explained.coalescedSites {
            let before = post.time - min(post.time, merged.enqueuedAt)
            rows.append(
                row(
                    site: merged.site.description,
                    detail: "\(merged.count) of \(total) merged enqueues; the first "
                        + Format.duration(before, ascii: ascii) + " before the post"))
        }
    }

    /// A post event explains that post; an event about a registration explains its posts.
    private static func explanation(_ data: DashboardData, eventSeq seq: UInt64) -> [PostExplanation] {
        guard let event = data.tail.events.first(where: { $0.seq == seq }) else {
            // A post or delivery the tail no longer holds (reached from a cascade): the kept one.
            guard let kept = data.model.cascadeEvent(seq: seq), let post = data.model.cascadePost(id: kept.postID)
            else { return [] }
            return data.model.explain(name: post.name, post: post.seq).posts
        }
        switch event {
        case .posted(let post):
            return data.model.explain(name: post.name, post: post.seq).posts
        case .delivered(let delivery):
            return data.model.explain(name: delivery.name).posts.filter { $0.post.postID == delivery.postID }
        case .enqueued(let enqueue):
            return data.model.explain(registration: enqueue.registration)?.posts
                .filter { $0.post.postID == enqueue.postID } ?? []
        case .registered(let registration):
            return data.model.explain(registration: registration.id)?.posts ?? []
        case .removed(let removal):
            return data.model.explain(registration: removal.registration)?.posts ?? []
        case .tokenDropped(let drop):
            return data.model.explain(registration: drop.registration)?.posts ?? []
        default:
            return []
        }
    }

    static let spec = TableSpec<Row>(
        columns: [
            TableColumn(
                "POST", .fixed(8), alignRight: true, descendingFirst: false, text: { "\($0.post)" },
                sortKey: { .number(Double($0.post)) }),
            TableColumn(
                "REG", .fixed(6), alignRight: true, descendingFirst: false,
                text: { $0.registration.map { "#\($0)" } ?? "" },
                sortKey: { .number(Double($0.registration ?? 0)) }),
            TableColumn("NAME", .flexible(min: 12), text: { $0.name }, sortKey: { .text($0.name) }),
            TableColumn("SITE", .flexible(min: 14), text: { $0.site }, sortKey: { .text($0.site) }),
            TableColumn(
                "REASON", .fixed(16), text: { $0.reason }, sortKey: { .text($0.reason) },
                style: { $0.reason == "delivered" ? .normal : .warning }),
            TableColumn("DETAIL", .flexible(min: 20), text: { $0.detail }),
        ],
        key: { row in row.registration.map { .event(seq: row.post, registration: $0) } ?? .line(row.index) },
        emptyMessage: "nothing to explain: the post or registration is no longer kept")

    /// The crumb of `level`.
    static func crumb(_ level: DrillLevel) -> String {
        switch level {
        case .explainEvent(let seq): "why: event \(seq)"
        case .explainRegistration(let id): "why: #\(id)"
        case .explainName(let name): "why: \(name)"
        default: "why"
        }
    }

    /// Rows under the table that show the selected verdict's whole detail, which the DETAIL column
    /// cuts: the evidence is the answer.
    private static let detailLines = 4

    static func draw(
        _ data: DashboardData, level: DrillLevel, state: TableState, rect: Rect, glyphs: Glyphs,
        into canvas: inout Canvas
    ) -> FrameInfo {
        let rows = rows(data, level, ascii: glyphs == .ascii)
        let strip = rect.height >= 12 ? detailLines + 1 : 0
        let table = Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height - strip)
        let info = TableWidget.render(rows, spec: spec, state: state, into: &canvas, rect: table, glyphs: glyphs)
        guard strip > 0, info.rowKeys.indices.contains(info.selectedIndex) else { return info }
        let key = info.rowKeys[info.selectedIndex]
        guard let selected = rows.first(where: { spec.key($0) == key }) else { return info }
        drawDetail(selected, x: rect.x, y: table.maxY, width: rect.width, into: &canvas)
        return info
    }

    private static func drawDetail(_ row: Row, x: Int, y: Int, width: Int, into canvas: inout Canvas) {
        let who = row.registration.map { "#\($0) " } ?? ""
        canvas.write("\(who)\(row.reason) (post \(row.post)):", x: x, y: y, width: width, style: .label)
        var lines = DisplayWidth.wrap(row.detail, to: max(1, width - 2))
        if lines.count > detailLines {
            lines = Array(lines.prefix(detailLines))
            lines[detailLines - 1] = DisplayWidth.truncate(lines[detailLines - 1] + " …", to: width - 2)
        }
        for (offset, line) in lines.enumerated() {
            canvas.write("  " + line, x: x, y: y + 1 + offset, width: width)
        }
    }
}
