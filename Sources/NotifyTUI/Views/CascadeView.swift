import NotifyModel
import NotifyWire

/// The `c` pane (a post's cascade as a tree: post → deliveries → the posts their handlers made →
/// …) and the `u` pane (who posted: from a delivery or post up to the root post). Rows are a
/// table: it filters, sorts (by thread, time, wait, run time) and saves like every table; unsorted
/// it keeps the tree's order.
enum CascadeView {
    struct Row: Sendable {
        var tree: String
        var thread: String
        var at: UInt64?
        var wait: UInt64?
        var ran: UInt64?
        var site: String
        var note: String
        var key: RowKey
        var style: Style
    }

    /// The rows of `level`, in tree (or chain) order.
    static func rows(_ data: DashboardData, _ level: DrillLevel, glyphs: Glyphs) -> [Row] {
        switch level {
        case .cascade(let target):
            guard let postID = postID(data, target), let cascade = data.model.cascade(post: postID) else { return [] }
            var rows: [Row] = []
            appendNode(cascade.root, data, base: cascade.root.post.time, prefix: "", connector: "", glyphs, &rows)
            for note in cascade.notes { rows.append(noteRow(note, prefix: "", rows.count)) }
            return rows
        case .postedBy(let target):
            guard let chain = chain(data, target) else { return [] }
            return chainRows(chain, data)
        default:
            return []
        }
    }

    private static func postID(_ data: DashboardData, _ target: CascadeTarget) -> UInt64? {
        switch target {
        case .post(let id), .delivery(let id, _): id
        case .event(let seq): data.model.cascadeEvent(seq: seq)?.postID
        }
    }

    private static func chain(_ data: DashboardData, _ target: CascadeTarget) -> PostedByChain? {
        switch target {
        case .post(let id): return data.model.postedBy(post: id)
        case .delivery(let post, let registration): return data.model.postedBy(post: post, registration: registration)
        case .event(let seq):
            guard let event = data.model.cascadeEvent(seq: seq) else { return nil }
            if event.registration != nil { return data.model.postedBy(deliverySeq: seq) }
            return data.model.postedBy(post: event.postID)
        }
    }

    private static func appendNode(
        _ node: CascadeNode, _ data: DashboardData, base: UInt64, prefix: String, connector own: String,
        _ glyphs: Glyphs, _ rows: inout [Row]
    ) {
        rows.append(postRow(node.post, data, tree: prefix + own, base: base))
        let inner = prefix + (own.isEmpty ? "" : own == glyphs.treeLast ? "   " : glyphs.treeStem)
        let children = node.deliveries.count + node.unplaced.count + node.notes.count
        var index = 0
        func connector(last: Bool) -> String { last ? glyphs.treeLast : glyphs.treeBranch }
        for branch in node.deliveries {
            index += 1
            let mine = connector(last: index == children)
            rows.append(deliveryRow(branch.delivery, data, tree: inner + mine, base: base))
            let below = inner + (index == children ? "   " : glyphs.treeStem)
            for (position, nested) in branch.nested.enumerated() {
                appendNode(
                    nested, data, base: base, prefix: below,
                    connector: connector(last: position == branch.nested.count - 1), glyphs, &rows)
            }
        }
        for nested in node.unplaced {
            index += 1
            let at = rows.count
            appendNode(
                nested, data, base: base, prefix: inner, connector: connector(last: index == children), glyphs, &rows)
            rows[at].note += "; the run that made it is not identified"
        }
        for note in node.notes {
            index += 1
            rows.append(noteRow(note, prefix: inner + connector(last: index == children), rows.count))
        }
    }

    private static func postRow(_ post: PostInfo, _ data: DashboardData, tree: String, base: UInt64) -> Row {
        var note = "post \(post.postID), depth \(post.depth), matched \(post.matched)"
        if let object = post.object { note += ", object \(object.typeName) #\(object.id)" }
        if let center = post.center { note += ", center \(center)" }
        return Row(
            tree: tree + post.name, thread: data.threadName(post.thread), at: post.time - min(post.time, base),
            wait: nil, ran: nil, site: post.site.description, note: note,
            key: .event(seq: post.seq, registration: nil), style: .value)
    }

    private static func deliveryRow(
        _ delivery: CascadeDelivery, _ data: DashboardData, tree: String, base: UInt64
    ) -> Row {
        var note = delivery.target.rawValue
        if delivery.hopped { note = "hopped from \(data.threadName(delivery.postingThread)) (\(note))" }
        return Row(
            tree: tree + "#\(delivery.registration) \(delivery.registrationName)",
            thread: data.threadName(delivery.thread),
            at: delivery.start - min(delivery.start, base), wait: delivery.wait, ran: delivery.duration,
            site: delivery.site?.description ?? "?", note: note,
            key: .event(seq: delivery.seq, registration: delivery.registration), style: .normal)
    }

    private static func noteRow(_ note: String, prefix: String, _ index: Int) -> Row {
        Row(
            tree: prefix + "(" + note + ")", thread: "", at: nil, wait: nil, ran: nil, site: "", note: "",
            key: .line(index), style: .warning)
    }

    /// The chain top down: the root post first, the asked delivery or post last.
    private static func chainRows(_ chain: PostedByChain, _ data: DashboardData) -> [Row] {
        let steps = Array(chain.steps.reversed())
        let base: UInt64 =
            switch steps.first {
            case .post(let post)?: post.time
            case .delivery(let delivery)?: delivery.start
            case nil: 0
            }
        var rows: [Row] = []
        for note in chain.notes { rows.append(noteRow(note, prefix: "", rows.count)) }
        for (depth, step) in steps.enumerated() {
            let tree = String(repeating: "  ", count: depth)
            switch step {
            case .post(let post): rows.append(postRow(post, data, tree: tree, base: base))
            case .delivery(let delivery): rows.append(deliveryRow(delivery, data, tree: tree, base: base))
            }
        }
        if !chain.reachedRoot, chain.notes.isEmpty {
            rows.insert(noteRow("the chain stops here", prefix: "", 0), at: 0)
        }
        return rows
    }

    /// The pane's table; its first column names the pane (a cascade, or a posted-by chain).
    static func spec(ascii: Bool, level: DrillLevel) -> TableSpec<Row> {
        let title: String
        if case .postedBy = level { title = "POSTED BY" } else { title = "CASCADE" }
        var site = TableColumn<Row>("SITE", .flexible(min: 14), text: { $0.site }, sortKey: { .text($0.site) })
        site.identifies(ideal: 34, .path)
        return TableSpec<Row>(
            columns: [
                TableColumn(title, .flexible(min: 24), text: { $0.tree }, style: { $0.style }),
                TableColumn("THREAD", .fixed(12), text: { $0.thread }, sortKey: { .text($0.thread) }),
                TableColumn(
                    "AT", .fixed(9), alignRight: true, descendingFirst: false,
                    text: { $0.at.map { "+" + Format.duration($0, ascii: ascii) } ?? "" },
                    sortKey: { .number(Double($0.at ?? 0)) }),
                TableColumn(
                    "WAIT", .fixed(8), alignRight: true,
                    text: { $0.wait.map { Format.duration($0, ascii: ascii) } ?? "" },
                    sortKey: { .number(Double($0.wait ?? 0)) }),
                TableColumn(
                    "RAN", .fixed(8), alignRight: true,
                    text: { $0.ran.map { Format.duration($0, ascii: ascii) } ?? "" },
                    sortKey: { .number(Double($0.ran ?? 0)) }),
                site,
                TableColumn("NOTE", .flexible(min: 16), text: { $0.note }),
            ],
            key: { $0.key }, emptyMessage: "nothing to show: the post or delivery is no longer kept")
    }

    /// The crumb of `level`.
    static func crumb(_ data: DashboardData, _ level: DrillLevel) -> String {
        switch level {
        case .cascade(let target): "cascade: " + subject(data, target)
        case .postedBy(let target): "posted by: " + subject(data, target)
        default: "cascade"
        }
    }

    private static func subject(_ data: DashboardData, _ target: CascadeTarget) -> String {
        switch target {
        case .event(let seq): "event \(seq)"
        case .post(let id): "post \(id)"
        case .delivery(let post, let registration): "post \(post) #\(registration)"
        }
    }

    static func draw(
        _ data: DashboardData, level: DrillLevel, state: TableState, rect: Rect, glyphs: Glyphs,
        into canvas: inout Canvas
    ) -> FrameInfo {
        TableWidget.render(
            rows(data, level, glyphs: glyphs), spec: spec(ascii: glyphs == .ascii, level: level), state: state,
            into: &canvas,
            rect: rect, glyphs: glyphs)
    }
}
