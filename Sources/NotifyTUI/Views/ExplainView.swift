import NotifyWire
import NotifyModel

/// The `x` pane: why each registration did or did not run for the selected post (Events), or
/// for each kept post of the selected registration's name (Observers). One row per verdict; the
/// rows sort and filter like every table.
enum ExplainView {
    struct Row: Sendable {
        var post: UInt64
        var postName: String
        var registration: UInt64
        var name: String
        var site: String
        var reason: String
        var detail: String
        var index: Int
    }

    /// The verdict rows of `level`, in the explanation's order.
    static func rows(_ data: DashboardData, _ level: DrillLevel) -> [Row] {
        let posts: [PostExplanation]
        switch level {
        case .explainEvent(let seq):
            posts = explanation(data, eventSeq: seq)
        case .explainRegistration(let id):
            posts = data.model.explain(registration: id)?.posts ?? []
        default:
            posts = []
        }
        var rows: [Row] = []
        for post in posts {
            for verdict in post.considered {
                rows.append(
                    Row(
                        post: post.seq, postName: post.name, registration: verdict.registration, name: verdict.name,
                        site: verdict.site?.description ?? "?", reason: verdict.reason.rawValue,
                        detail: verdict.detail, index: rows.count))
            }
        }
        return rows
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
            return data.model.explain(name: delivery.name).posts.filter { $0.postID == delivery.postID }
        case .enqueued(let enqueue):
            return data.model.explain(registration: enqueue.registration)?.posts
                .filter { $0.postID == enqueue.postID } ?? []
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
                "REG", .fixed(6), alignRight: true, descendingFirst: false, text: { "#\($0.registration)" },
                sortKey: { .number(Double($0.registration)) }),
            TableColumn("NAME", .flexible(min: 12), text: { $0.name }, sortKey: { .text($0.name) }),
            TableColumn("SITE", .flexible(min: 14), text: { $0.site }, sortKey: { .text($0.site) }),
            TableColumn(
                "REASON", .fixed(16), text: { $0.reason }, sortKey: { .text($0.reason) },
                style: { $0.reason == "delivered" ? .normal : .warning }),
            TableColumn("DETAIL", .flexible(min: 20), text: { $0.detail }),
        ],
        key: { .event(seq: $0.post, registration: $0.registration) },
        emptyMessage: "nothing to explain: the post or registration is no longer kept")

    /// The crumb of `level`.
    static func crumb(_ level: DrillLevel) -> String {
        switch level {
        case .explainEvent(let seq): "why: event \(seq)"
        case .explainRegistration(let id): "why: #\(id)"
        default: "why"
        }
    }

    static func draw(
        _ data: DashboardData, level: DrillLevel, state: TableState, rect: Rect, glyphs: Glyphs,
        into canvas: inout Canvas
    ) -> FrameInfo {
        TableWidget.render(rows(data, level), spec: spec, state: state, into: &canvas, rect: rect, glyphs: glyphs)
    }
}
