package import NotifyModel
import NotifyTUI
import NotifyWire

/// `notifytop explain --post SEQ --cascade` and `--posted-by`: a post's cascade as an indented
/// tree a person reads, or as one JSON object with the tree.
package struct CascadeReport: Sendable, Encodable {
    typealias Post = ReportedPost

    struct Delivery: Sendable, Encodable {
        var seq: UInt64
        var postID: UInt64
        var registration: UInt64
        var registrationName: String
        var site: String?
        var thread: UInt64
        var threadName: String
        var postingThread: UInt64
        var target: String
        var startNs: UInt64
        var durationNs: UInt64
        var waitNs: UInt64
        var hopped: Bool
    }

    struct Node: Sendable, Encodable {
        let post: Post
        let deliveries: [Branch]
        let unplaced: [Node]
        let notes: [String]

        init(_ node: CascadeNode) {
            post = CascadeReport.post(node.post)
            deliveries = node.deliveries.map {
                Branch(delivery: CascadeReport.delivery($0.delivery), nested: $0.nested.map { Node($0) })
            }
            unplaced = node.unplaced.map { Node($0) }
            notes = node.notes
        }
    }

    struct Branch: Sendable, Encodable {
        var delivery: Delivery
        var nested: [Node]
    }

    struct Step: Sendable, Encodable {
        var post: Post?
        var delivery: Delivery?
    }

    /// The tree (`--cascade`).
    let cascade: Node?
    let posts: Int?
    let deliveries: Int?
    let truncated: Bool?
    /// The chain, from what was asked up to the root (`--posted-by`).
    let postedBy: [Step]?
    let reachedRoot: Bool?
    let notes: [String]

    /// The report of a cascade.
    package init(_ cascade: Cascade) {
        self.cascade = Node(cascade.root)
        posts = cascade.posts
        deliveries = cascade.deliveries
        truncated = cascade.truncated
        postedBy = nil
        reachedRoot = nil
        notes = cascade.notes
    }

    /// The report of a "posted by" chain.
    package init(_ chain: PostedByChain) {
        cascade = nil
        posts = nil
        deliveries = nil
        truncated = nil
        postedBy = chain.steps.map {
            switch $0 {
            case .post(let post): Step(post: Self.post(post))
            case .delivery(let delivery): Step(delivery: Self.delivery(delivery))
            }
        }
        reachedRoot = chain.reachedRoot
        notes = chain.notes
    }

    static func post(_ post: PostInfo) -> Post {
        Post(post, matched: true)
    }

    static func delivery(_ delivery: CascadeDelivery) -> Delivery {
        Delivery(
            seq: delivery.seq, postID: delivery.postID, registration: delivery.registration,
            registrationName: delivery.registrationName, site: delivery.site?.description, thread: delivery.thread,
            threadName: delivery.threadName, postingThread: delivery.postingThread, target: delivery.target.rawValue,
            startNs: delivery.start, durationNs: delivery.duration, waitNs: delivery.wait, hopped: delivery.hopped)
    }

    /// One JSON object, sorted snake_case keys.
    package var json: String { BatchJSON.encode(self) }

    /// An indented tree: each post, its runs under it, each run's posts under that.
    package var text: String {
        var lines: [String] = []
        if let cascade { append(cascade, indent: "", base: cascade.post.timeNs, to: &lines) }
        if let postedBy {
            let base = postedBy.last?.post?.timeNs ?? postedBy.last?.delivery?.startNs ?? 0
            for (depth, step) in postedBy.reversed().enumerated() {
                let indent = String(repeating: "  ", count: depth)
                if let post = step.post { lines.append(indent + Self.line(post, base: base)) }
                if let delivery = step.delivery { lines.append(indent + Self.line(delivery, base: base)) }
            }
            if reachedRoot == true { lines.append("(the first line is a post made outside any handler)") }
        }
        for note in notes { lines.append("note: \(note)") }
        return PrintableText.lines(lines.joined(separator: "\n"))
    }

    private func append(_ node: Node, indent: String, base: UInt64, to lines: inout [String]) {
        lines.append(indent + Self.line(node.post, base: base))
        for note in node.notes { lines.append(indent + "  note: \(note)") }
        for branch in node.deliveries {
            lines.append(indent + "  " + Self.line(branch.delivery, base: base))
            for nested in branch.nested { append(nested, indent: indent + "    ", base: base, to: &lines) }
        }
        for nested in node.unplaced {
            lines.append(indent + "  (made inside a run the trace does not identify:)")
            append(nested, indent: indent + "    ", base: base, to: &lines)
        }
    }

    private static func line(_ post: Post, base: UInt64) -> String {
        "post seq \(post.seq) \"\(post.name)\"" + (post.center.map { " to center \"\($0)\"" } ?? "")
            + " (post \(post.postID), depth \(post.depth)) on \(post.threadName) "
            + "at \(post.site), +\(Self.offset(post.timeNs, base))"
    }

    private static func line(_ delivery: Delivery, base: UInt64) -> String {
        var text =
            "ran #\(delivery.registration) \"\(delivery.registrationName)\" at \(delivery.site ?? "?") on "
            + "\(delivery.threadName) (\(delivery.target)), +\(Self.offset(delivery.startNs, base)) for "
            + Format.duration(delivery.durationNs)
        if delivery.waitNs > 0 { text += ", waited \(Format.duration(delivery.waitNs))" }
        if delivery.hopped { text += ", hopped threads" }
        return text
    }

    private static func offset(_ time: UInt64, _ base: UInt64) -> String {
        Format.duration(time >= base ? time - base : 0)
    }
}
