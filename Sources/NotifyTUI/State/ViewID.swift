/// The dashboard's top-level views, toggled with 1–6 and Tab (btop's numbered boxes).
package enum ViewID: Int, Sendable, Hashable, CaseIterable {
    /// Per-name table.
    case names = 1
    /// Every registration.
    case observers
    /// Per-thread delivery logs.
    case threads
    /// Leak and misuse warnings.
    case leaks
    /// The raw event tail.
    case events
    /// notifytop's own actions (attach, losses, recordings, exports).
    case log

    /// The tab title.
    package var title: String {
        switch self {
        case .names: "Names"
        case .observers: "Observers"
        case .threads: "Threads"
        case .leaks: "Leaks"
        case .events: "Events"
        case .log: "Log"
        }
    }

    /// Parses a `--view` argument: a number or a title, case-insensitive.
    package init?(argument: String) {
        let lowered = argument.lowercased()
        if let number = Int(lowered), let view = ViewID(rawValue: number) {
            self = view
            return
        }
        guard let view = ViewID.allCases.first(where: { $0.title.lowercased() == lowered }) else { return nil }
        self = view
    }

    /// The next view, wrapping (Tab).
    package var next: ViewID { ViewID(rawValue: rawValue % Self.allCases.count + 1)! }
    /// The previous view, wrapping (Shift-Tab).
    package var previous: ViewID {
        ViewID(rawValue: (rawValue + Self.allCases.count - 2) % Self.allCases.count + 1)!
    }
}

/// One step of a drill-down: what Enter opened, and what Esc closes.
///
/// Rows name their drill target through their ``RowKey`` (``RowKey/drillTarget``).
package enum DrillLevel: Sendable, Hashable {
    /// The observers of one notification name.
    case name(String)
    /// One registration's deliveries.
    case registration(UInt64)
    /// One warning's detail.
    case warning(String)
    /// One thread's deliveries.
    case thread(UInt64)
    /// Why each registration did or did not run: for a post event, or the event's registration.
    case explainEvent(UInt64)
    /// Why one registration did or did not run for its name's posts.
    case explainRegistration(UInt64)
    /// Why each registration did or did not run for a name's last kept post (`x` on Names).
    case explainName(String)
    /// What a post set off: its deliveries and nested posts, as a tree.
    case cascade(CascadeTarget)
    /// Who posted: from a delivery or a post up to a post made outside any handler.
    case postedBy(CascadeTarget)
    /// The deliveries a leak finding caused or prevented, by the finding's key.
    case explainFinding(String)

    /// The key of the row that drills here.
    package var rowKey: RowKey {
        switch self {
        case .name(let name): .name(name)
        case .registration(let id): .registration(id)
        case .warning(let id): .warning(id)
        case .thread(let id): .thread(id)
        case .explainEvent(let seq): .why("evt:\(seq)")
        case .explainRegistration(let id): .why("reg:\(id)")
        case .explainName(let name): .why("name:" + name)
        case .cascade(let target): .why("cascade:\(target)")
        case .postedBy(let target): .why("by:\(target)")
        case .explainFinding(let key): .why("warn:" + key)
        }
    }
}

/// What a cascade or a "posted by" chain starts from, as a row names it.
package enum CascadeTarget: Sendable, Hashable, CustomStringConvertible {
    /// A post or deliver line by sequence number.
    case event(UInt64)
    /// A post by id.
    case post(UInt64)
    /// A post's delivery to a registration.
    case delivery(post: UInt64, registration: UInt64)

    /// `evt:12`, `post:4`, `post:4#2`.
    package var description: String {
        switch self {
        case .event(let seq): "evt:\(seq)"
        case .post(let id): "post:\(id)"
        case .delivery(let post, let registration): "post:\(post)#\(registration)"
        }
    }
}
