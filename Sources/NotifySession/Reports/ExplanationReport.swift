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

    struct Post: Sendable, Encodable {
        var seq: UInt64
        var postID: UInt64
        var name: String
        /// The label of the center posted to; absent when the stream carries one center.
        var center: String?
        var object: ReportedObject?
        var thread: UInt64
        var threadName: String
        var site: String
        var timeNs: UInt64
        var depth: Int
        var parentPostID: UInt64
        var coalesced: Coalesced?
        var considered: [Considered]
        var registeredLater: RegisteredLater?
        var notes: [String]

        enum CodingKeys: String, CodingKey {
            case seq, postID, name, center, object, thread, threadName, site, timeNs, depth, parentPostID, coalesced
            case considered, registeredLater, notes
        }

        /// As synthesized, except that a post with no object says `"object": null`.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(seq, forKey: .seq)
            try container.encode(postID, forKey: .postID)
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(center, forKey: .center)
            try container.encode(object, forKey: .object)
            try container.encode(thread, forKey: .thread)
            try container.encode(threadName, forKey: .threadName)
            try container.encode(site, forKey: .site)
            try container.encode(timeNs, forKey: .timeNs)
            try container.encode(depth, forKey: .depth)
            try container.encode(parentPostID, forKey: .parentPostID)
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
                seq: post.seq, postID: post.postID, name: post.name, center: post.center,
                object: post.object.map(ReportedObject.init),
                thread: post.thread, threadName: post.threadName, site: post.site.description, timeNs: post.time,
                depth: post.depth, parentPostID: post.parentPostID,
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
        if let object { posts.removeAll { $0.object?.id != object } }
        if let post { posts.removeAll { $0.seq != post } }
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
        for post in posts {
            let object = post.object.map { "\($0.type) #\($0.id) @\($0.address)" } ?? "no object"
            lines.append("")
            lines.append(
                "post seq \(post.seq) \"\(post.name)\"\(post.center.map { " to center \"\($0)\"" } ?? "") with \(object), on \(post.threadName) at \(post.site)"
                    + (post.depth > 1 ? ", inside post \(post.parentPostID) (depth \(post.depth))" : ""))
            if let coalesced = post.coalesced {
                if coalesced.sites.isEmpty {
                    lines.append(
                        "  coalesced: a queue merged \(coalesced.count) earlier enqueue(s) of this name; the trace "
                            + "does not carry their sites")
                } else {
                    let sites = coalesced.sites.map { "\($0.count) at \($0.site)" }.joined(separator: ", ")
                    lines.append("  coalesced: a queue merged \(coalesced.count) earlier enqueue(s) into it: \(sites)")
                }
            }
            for note in post.notes { lines.append("  note: \(note)") }
            if post.considered.isEmpty && post.registeredLater == nil {
                lines.append("  no registration could have received it")
            }
            for entry in post.considered {
                let mark = entry.delivered ? "ran   " : "missed"
                lines.append(
                    "  \(mark) #\(entry.registration) \"\(entry.name)\"\(Self.onCenter(entry.center)) at \(entry.site ?? "?")  \(entry.reason): "
                        + entry.detail)
            }
            if let later = post.registeredLater {
                lines.append("  later  " + later.summary)
            }
        }
        return PrintableText.lines(lines.joined(separator: "\n"))
    }
}
