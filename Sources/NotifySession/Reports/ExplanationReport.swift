package import NotifyModel

/// `notifytop explain`'s output: an `Explanation` as text a person reads, or as one JSON object.
package struct ExplanationReport: Sendable, Encodable {
    struct Considered: Sendable, Encodable {
        var registration: UInt64
        var site: String?
        var name: String
        /// The label of its center; absent when the stream carries one center.
        var center: String?
        var delivered: Bool
        var reason: String
        var detail: String
    }

    /// Enqueues a queue merged into a post: how many, and where they were made (format 1.5).
    struct Coalesced: Sendable, Encodable {
        struct Site: Sendable, Encodable {
            var site: String
            var count: Int
            var enqueuedNs: UInt64
        }

        var count: Int
        var sites: [Site]
    }

    /// Registrations made after a post, which could not have received it: counted, not listed.
    struct RegisteredLater: Sendable, Encodable {
        var count: Int
        var firstAfterNs: UInt64
        var summary: String
    }

    /// A post and its verdicts: one JSON object, the post's fields beside the explanation's.
    struct Post: Sendable, Encodable {
        var post: ReportedPost
        var coalesced: Coalesced?
        var considered: [Considered]
        var registeredLater: RegisteredLater?
        var notes: [String]

        enum CodingKeys: String, CodingKey {
            case object, coalesced, considered, registeredLater, notes
        }

        /// The post's fields, then the explanation's; a post with no object says `"object": null`.
        func encode(to encoder: any Encoder) throws {
            try post.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            if post.object == nil { try container.encodeNil(forKey: .object) }
            try container.encodeIfPresent(coalesced, forKey: .coalesced)
            try container.encode(considered, forKey: .considered)
            try container.encodeIfPresent(registeredLater, forKey: .registeredLater)
            try container.encode(notes, forKey: .notes)
        }
    }

    var name: String
    var nearNames: [String]
    var posts: [Post]
    var notes: [String]

    /// The report of `explanation`.
    package init(_ explanation: Explanation) {
        name = explanation.name
        nearNames = explanation.nearNames
        notes = explanation.notes
        posts = explanation.posts.map { post in
            Post(
                post: ReportedPost(post.post, matched: false),
                coalesced: post.coalesced.map { count in
                    Coalesced(
                        count: count,
                        sites: post.coalescedSites.map {
                            Coalesced.Site(site: $0.site.description, count: $0.count, enqueuedNs: $0.enqueuedAt)
                        })
                },
                considered: post.considered.map {
                    Considered(
                        registration: $0.registration, site: $0.site?.description, name: $0.name, center: $0.center,
                        delivered: $0.delivered, reason: $0.reason.rawValue, detail: $0.detail)
                },
                registeredLater: post.registeredLater.map {
                    RegisteredLater(count: $0.count, firstAfterNs: $0.firstAfter, summary: $0.summary)
                },
                notes: post.notes)
        }
    }

    /// The report of one registration's posts.
    package init(_ explanation: RegistrationExplanation) {
        self.init(
            Explanation(
                name: explanation.registration.displayName, nearNames: [], posts: explanation.posts,
                notes: explanation.notes))
    }

    /// Whether a note says that older posts were not kept.
    package var leftOlderPosts: Bool { notes.contains { $0.hasPrefix(Self.keptWindowPrefix) } }
    private static let keptWindowPrefix = "the last "

    /// Adds a whole-answer note.
    package mutating func note(_ text: String) { notes.append(text) }

    /// Keeps only the posts of object id `object` and of sequence number `post`, when given.
    package mutating func keep(object: UInt64?, post: UInt64?) {
        if let object { posts.removeAll { $0.post.object?.id != object } }
        if let post { posts.removeAll { $0.post.seq != post } }
    }

    /// One JSON object, sorted snake_case keys.
    package var json: String { BatchJSON.encode(self) }

    /// ` on center "sync"`, or nothing for a stream of one center.
    private static func onCenter(_ label: String?) -> String {
        label.map { " on center \"\($0)\"" } ?? ""
    }

    /// Lines a person reads: each post, then each registration weighed, delivered first.
    package var text: String {
        var lines: [String] = notes.map { "note: \($0)" }
        if !nearNames.isEmpty {
            lines.append("near names: " + nearNames.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        if posts.isEmpty { lines.append("no post to explain") }
        for entry in posts {
            let post = entry.post
            let object = post.object.map { "\($0.type) #\($0.id) @\($0.address)" } ?? "no object"
            lines.append("")
            lines.append(
                "post seq \(post.seq) \"\(post.name)\"\(post.center.map { " to center \"\($0)\"" } ?? "") with \(object), on \(post.threadName) at \(post.site)"
                    + (post.depth > 1 ? ", inside post \(post.parentPostID) (depth \(post.depth))" : ""))
            if let coalesced = entry.coalesced {
                if coalesced.sites.isEmpty {
                    lines.append(
                        "  coalesced: a queue merged \(coalesced.count) earlier enqueue(s) of this name; the trace "
                            + "does not carry their sites")
                } else {
                    let sites = coalesced.sites.map { "\($0.count) at \($0.site)" }.joined(separator: ", ")
                    lines.append("  coalesced: a queue merged \(coalesced.count) earlier enqueue(s) into it: \(sites)")
                }
            }
            for note in entry.notes { lines.append("  note: \(note)") }
            if entry.considered.isEmpty && entry.registeredLater == nil {
                lines.append("  no registration could have received it")
            }
            for verdict in entry.considered {
                let mark = verdict.delivered ? "ran   " : "missed"
                lines.append(
                    "  \(mark) #\(verdict.registration) \"\(verdict.name)\"\(Self.onCenter(verdict.center)) at \(verdict.site ?? "?")  \(verdict.reason): "
                        + verdict.detail)
            }
            if let later = entry.registeredLater {
                lines.append("  later  " + later.summary)
            }
        }
        return PrintableText.lines(lines.joined(separator: "\n"))
    }
}
