package import NotifyTUI
package import NotifyWire

/// `--match QUERY` on a `--record` capture: which lines go into the file, and which count toward
/// `--limit`.
///
/// The query is the table filter's language (`FilterQuery`) over the fields every event has:
/// `kind` (the line kind: `post`, `deliver`, `register`, `remove`, `token-dropped`,
/// `remove-missed`, `queue`, `enqueue`), `name` (the notification's name, empty for a registration
/// to every name), `thread` (the thread's name), `site` (`File.swift:LINE` of the call, empty for a
/// delivery), `dur` and `wait` (a delivery's handler time and queue wait; 0 elsewhere). So
/// `--match cart`, `--match "name~^Cart kind=deliver dur>5ms"`, `--match thread=main`.
///
/// Those are the counted events. A removal, a dropped token or an enqueue follows what it refers to
/// (the registration or the post kept). The header, definitions, clock, gap, end and checkpoint
/// lines are always kept and never counted, so the file replays; history lines are kept when their
/// name matches.
package struct CaptureFilter {
    /// What becomes of one line.
    package enum Verdict: Equatable {
        /// Left out of the file.
        case skip
        /// Written, not counted (a definition, the header, a clock line).
        case keep
        /// Written and counted toward `--limit`.
        case count
    }

    /// The fields a query names, as the filter's columns.
    package static let fields = ["KIND", "NAME", "THREAD", "SITE", "DUR", "WAIT"]
    /// Posts remembered for their enqueue lines.
    static let rememberedPosts = 65_536

    private let query: FilterQuery?
    private var threadNames: [UInt64: String] = [:]
    private var sites: [UInt64: String] = [:]
    private var keptRegistrations: Set<UInt64> = []
    private var keptPosts: Set<UInt64> = []
    private var keptPostOrder: [UInt64] = []
    private var keptPostHead = 0

    /// A filter keeping what `query` matches; nil or empty keeps everything.
    ///
    /// - Throws: the one-line reason when the query does not parse.
    package init(query: String?) throws(FilterQuery.ParseError) {
        if let query, query.contains(where: { !$0.isWhitespace }) {
            self.query = try FilterQuery(query, fields: Self.fields)
        } else {
            self.query = nil
        }
    }

    /// Judges `event`, the next line of the stream.
    package mutating func judge(_ event: TraceEvent) -> Verdict {
        switch event {
        case .thread(let thread):
            threadNames[thread.id] = thread.name
            return .keep
        case .callsite(let site):
            sites[site.id] = "\(site.file.split(separator: "/").last ?? Substring(site.file)):\(site.line)"
            return .keep
        case .header, .type, .object, .center, .tick, .gap, .end, .checkpoint, .siteCount, .unknown: return .keep
        case .history(let history):
            return matches("history", history.name ?? "", thread: history.thread, site: 0) ? .keep : .skip
        case .registered(let registration):
            guard matches("register", registration.name ?? "", thread: registration.thread, site: registration.callsite)
            else { return .skip }
            keptRegistrations.insert(registration.id)
            return .count
        case .removed(let removal):
            return keptRegistrations.remove(removal.registration) != nil ? .count : .skip
        case .tokenDropped(let drop):
            return keptRegistrations.contains(drop.registration) ? .count : .skip
        case .removeMissed(let missed):
            return matches("remove-missed", missed.name ?? "", thread: missed.thread, site: missed.callsite)
                ? .count : .skip
        case .posted(let post):
            guard matches("post", post.name, thread: post.thread, site: post.callsite) else { return .skip }
            remember(post.postID)
            return .count
        case .delivered(let delivery):
            return matches(
                "deliver", delivery.name, thread: delivery.thread, site: nil, duration: delivery.duration,
                wait: delivery.wait) ? .count : .skip
        case .queue(let activity):
            return matches("queue", activity.name ?? "", thread: activity.thread, site: nil) ? .count : .skip
        case .enqueued(let enqueue):
            return keptPosts.contains(enqueue.postID) ? .count : .skip
        case .merged(let merge):
            return keptPosts.contains(merge.postID) ? .count : .skip
        case .objectDead(let death):
            return keptRegistrations.contains(death.registration) ? .count : .skip
        }
    }

    private func matches(
        _ kind: String, _ name: String, thread: UInt64, site: UInt64?, duration: UInt64 = 0, wait: UInt64 = 0
    ) -> Bool {
        guard let query else { return true }
        let texts = [
            kind, name, threadNames[thread] ?? "thread \(thread)", site.flatMap { sites[$0] } ?? "", "\(duration)",
            "\(wait)",
        ]
        func value(_ column: Int) -> SortKey {
            switch column {
            case 4: .number(Double(duration))
            case 5: .number(Double(wait))
            default: .text(texts[column])
            }
        }
        return query.matches(columns: texts.count, text: { texts[$0] }, value: value)
    }

    private mutating func remember(_ postID: UInt64) {
        if keptPostOrder.count < Self.rememberedPosts {
            keptPostOrder.append(postID)
        } else {
            keptPosts.remove(keptPostOrder[keptPostHead])
            keptPostOrder[keptPostHead] = postID
            keptPostHead = (keptPostHead + 1) % Self.rememberedPosts
        }
        keptPosts.insert(postID)
    }
}
