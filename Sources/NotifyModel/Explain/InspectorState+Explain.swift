import NotifyWire

extension InspectorState {
    /// The edit distance within which another name counts as a near miss of the one asked.
    public static let explainNameDistance = 2

    /// Explains the kept posts of `name`: for each, every registration that could have received
    /// it (its name's, every-name ones, near names' ones, live or ended within the model's
    /// retirement window) with a verdict and a reason. A name nobody posted explains its near
    /// names' posts instead.
    ///
    /// Pure: the same events give the same answer however they were batched. Reads only what the
    /// fold keeps: the post history (each name's last ``InspectorConfiguration/explainPostsPerName``
    /// posts among its last ``InspectorConfiguration/explainLinkCapacity`` posts of all names) and
    /// the registrations the observer table still holds. A name whose posts all left the history
    /// is said to be older than it, with its last post's time and site, never "nobody posted".
    ///
    /// - Parameters:
    ///   - name: The notification name whose posts are explained.
    ///   - object: only posts of this object id.
    ///   - registration: only this registration's verdicts.
    ///   - seq: only the post with this sequence number.
    /// - Complexity: O(names + registrations) to find the candidates, then O(candidates) per post.
    public func explain(
        name: String, object: UInt64? = nil, registration: UInt64? = nil, post seq: UInt64? = nil
    ) -> Explanation {
        let near = nearNames(to: name)
        var notes: [String] = []
        var posts = keptPosts(named: name)
        if posts.isEmpty, let older = postedBeforeTheHistory(name) {
            notes.append(older)
        } else if posts.isEmpty {
            let posted = near.filter { !keptPosts(named: $0).isEmpty }
            if posted.isEmpty {
                notes.append("nobody posted \"\(name)\" (or its posts are no longer kept), nor a near name")
            } else {
                let list = posted.map { "\"\($0)\"" }.joined(separator: ", ")
                notes.append("nobody posted \"\(name)\": explaining the posts of \(list)")
                posts = posted.flatMap { keptPosts(named: $0) }.sorted { $0.seq < $1.seq }
            }
        }
        if let lacking = whatTheTraceLacks { notes.append(lacking) }
        // A registration meant to end may run on because its removal ended nothing (R11).
        for missed in missedRemovals.elements where missed.name == name {
            notes.append(
                "remove-missed: removeObserver at \(missed.callsite) ended nothing: the token is another center's "
                    + "or was removed already")
        }
        if let window = keptWindow(named: Set(posts.map(\.name))) { notes.append(window) }
        if let object { posts.removeAll { $0.object != object } }
        if let seq { posts.removeAll { $0.seq != seq } }
        var candidatesByName: [String: [Int]] = [:]
        let explained = posts.map { post in
            let candidates = candidatesByName[post.name] ?? candidateSlots(for: post.name)
            candidatesByName[post.name] = candidates
            return explainPost(post, candidates: candidates, only: registration)
        }
        return Explanation(name: name, nearNames: near, posts: explained, notes: notes)
    }

    /// Explains one registration: the kept posts of its name, received or missed, with reasons.
    /// Nil when the model no longer tracks it.
    public func explain(registration id: UInt64) -> RegistrationExplanation? {
        guard let slot = registrationSlots[id] else { return nil }
        let row = rows[slot]
        let posts: [PostHistory.Post]
        if let name = row.name {
            posts = keptPosts(named: name)
        } else {
            posts = nameSlots.keys.flatMap { keptPosts(named: $0) }.sorted { $0.seq < $1.seq }
        }
        var notes: [String] = []
        if posts.isEmpty { notes.append("no post of \"\(row.displayName)\" is kept") }
        if let window = keptWindow(named: Set(posts.map(\.name))) { notes.append(window) }
        if let lacking = whatTheTraceLacks { notes.append(lacking) }
        return RegistrationExplanation(
            registration: row, posts: posts.map { explainPost($0, candidates: [slot], only: id) }, notes: notes)
    }

    /// Whether the trace (format 1.5 or later) carries removal sites, object filter deaths and the
    /// post each coalesced enqueue merged into; assumed without a header.
    var traceCarriesWhy: Bool {
        header.map { $0.version >= TraceFormatVersion(major: 1, minor: 5) } ?? true
    }

    /// What an older trace does not carry, for an explanation's notes; nil for 1.5 and later.
    var whatTheTraceLacks: String? {
        guard !traceCarriesWhy, let version = header?.version else { return nil }
        return "this trace is format \(version), before 1.5: it does not carry the site of the call that "
            + "removed a registration, when an object filter died, nor which post a queue's coalesced "
            + "enqueues merged into (counted by name instead) and their sites"
    }

    /// Names registrations observe or posts use that are near `name` (not `name` itself), sorted.
    func nearNames(to name: String) -> [String] {
        nameSlots.keys.filter {
            NameSimilarity.nearness(name, $0, maximumDistance: Self.explainNameDistance) != nil
        }.sorted()
    }

    /// Which posts an explanation covers when older posts of `names` were not kept:
    /// `the last 32 posts of "save" are kept; 8 older ones are not explained`. Nil when all are.
    func keptWindow(named names: Set<String>) -> String? {
        let shown = 3
        let limit = max(1, configuration.explainPostsPerName)
        var clauses: [String] = []
        var more = 0
        for name in names.sorted() {
            guard let slot = nameSlots[name] else { continue }
            let row = nameRows[slot]
            let kept = history.keptCount(ofNameFrom: row.newestPost.ordinal, limit: limit)
            let count = Int(clamping: row.posts) - kept
            guard count > 0 else { continue }
            guard clauses.count < shown else {
                more += 1
                continue
            }
            let window =
                kept == limit
                ? "the last \(limit) posts of \"\(name)\" are kept"
                : "the last \(kept) posts of \"\(name)\" are kept (the history keeps the last "
                    + "\(history.capacity) posts of all names)"
            clauses.append(window + "; \(count) older \(count == 1 ? "one is" : "ones are") not explained")
        }
        if more > 0 { clauses.append("and so for \(more) more names") }
        return clauses.isEmpty ? nil : clauses.joined(separator: "; ")
    }

    /// For a name posted, none of whose posts the history still keeps: when it was last posted,
    /// and that the post is older than the history. Nil for a name never posted or still kept.
    func postedBeforeTheHistory(_ name: String) -> String? {
        guard let slot = nameSlots[name], nameRows[slot].posts > 0 else { return nil }
        let newest = nameRows[slot].newestPost
        guard newest.ordinal >= 0, !history.keeps(post: newest.ordinal) else { return nil }
        let ago = now >= newest.time ? ExplainText.duration(now - newest.time) + " before the latest event" : "earlier"
        return "\"\(name)\" was last posted \(ago) (post \(newest.postID), line \(newest.seq), at "
            + "\(definitions.callsite(newest.callsite)), \(newest.matched) registrations matched); that post is older "
            + "than the history kept (the last \(history.capacity) posts of all names): its deliveries are no "
            + "longer kept"
    }

    func keptPosts(named name: String) -> [PostHistory.Post] {
        guard let slot = nameSlots[name] else { return [] }
        return history.posts(
            ofNameFrom: nameRows[slot].newestPost.ordinal, limit: max(1, configuration.explainPostsPerName))
    }

    /// Row slots of registrations that could receive a post of `name`: its own, `*`, near names'.
    func candidateSlots(for name: String) -> [Int] {
        var nearness: [String: Bool] = [:]
        var slots: [Int] = []
        for (slot, row) in rows.enumerated() where row.occupied {
            guard let observed = row.name, observed != name else {
                slots.append(slot)
                continue
            }
            if let near = nearness[observed] {
                if near { slots.append(slot) }
                continue
            }
            let near = NameSimilarity.nearness(name, observed, maximumDistance: Self.explainNameDistance) != nil
            nearness[observed] = near
            if near { slots.append(slot) }
        }
        return slots
    }

    func explainPost(_ post: PostHistory.Post, candidates: [Int], only: UInt64?) -> PostExplanation {
        let (links, complete) = history.links(of: post)
        // Each candidate's own links in one lookup, not a scan of all of them per candidate.
        let linksByRegistration = Dictionary(grouping: links, by: \.registration)
        var verdicts: [ExplanationVerdict] = []
        var seen = Set<UInt64>()
        var delivered: [Int] = []
        var nameNotes: [String: String] = [:]
        var later: LaterRegistrations?
        for slot in candidates {
            let row = rows[slot]
            seen.insert(row.id)
            guard only == nil || only == row.id else { continue }
            let verdict = self.verdict(
                post, row: row, own: linksByRegistration[row.id] ?? [], complete: complete, nameNotes: &nameNotes)
            if verdict.delivered { delivered.append(slot) }
            if only == nil, verdict.reason == .registeredAfter {
                let after = row.registeredAt - post.time
                later = LaterRegistrations(
                    count: (later?.count ?? 0) + 1, firstAfter: min(later?.firstAfter ?? after, after))
                continue
            }
            verdicts.append(verdict)
        }
        // Deliveries to registrations the table no longer holds: a handler ran for a post only on
        // the center posted to, so that is the registration's center.
        let postCenter = carriesSeveralCenters ? centerLabel(post.center) : nil
        for link in links where link.kind == .delivered && !seen.contains(link.registration) {
            guard only == nil || only == link.registration else { continue }
            seen.insert(link.registration)
            verdicts.append(
                ExplanationVerdict(
                    registration: link.registration, site: nil, name: "?", center: postCenter, reason: .delivered,
                    detail: "ran on \(threadLabel(link.thread)); the registration has since retired from the model"))
        }
        verdicts = markDuplicates(verdicts, delivered: delivered)
        verdicts.sort { ($0.delivered ? 0 : 1, $0.registration) < ($1.delivered ? 0 : 1, $1.registration) }
        var notes: [String] = []
        if !complete {
            notes.append(
                "older deliveries of this post were overwritten: explanations keep the last "
                    + "\(history.capacity) deliveries and enqueues")
        }
        if eventsLost > 0 {
            notes.append("\(eventsLost) events were lost in gaps: a missing delivery may be among them")
        }
        let merges = explainFacts.merges[post.postID] ?? []
        let sites = merges.map {
            CoalescedEnqueues(
                site: definitions.callsite($0.callsite), count: Int(clamping: $0.count), enqueuedAt: $0.enqueuedAt)
        }
        let coalesced = traceCarriesWhy ? sites.reduce(0) { $0 &+ $1.count } : post.coalesced
        return PostExplanation(
            post: cascadePost(post),
            coalesced: coalesced > 0 ? coalesced : nil, coalescedSites: sites, considered: verdicts,
            registeredLater: later, notes: notes)
    }

    /// A delivered registration that shares its observer (or, for blocks, its site), name and
    /// object filter with another delivered one ran twice for one post: say which is the other.
    private func markDuplicates(_ verdicts: [ExplanationVerdict], delivered: [Int]) -> [ExplanationVerdict] {
        guard delivered.count > 1 else { return verdicts }
        struct Key: Hashable {
            let observer: UInt64?
            let site: UInt64?
            let name: String?
            let object: UInt64?
        }
        var groups: [Key: [Int]] = [:]
        for slot in delivered {
            let row = rows[slot]
            let key = Key(
                observer: row.observer?.id, site: row.observer == nil ? row.callsite.id : nil, name: row.name,
                object: row.objectFilter?.id)
            groups[key, default: []].append(slot)
        }
        var others: [UInt64: [ObserverRow]] = [:]
        for group in groups.values where group.count > 1 {
            for slot in group { others[rows[slot].id] = group.filter { $0 != slot }.map { rows[$0] } }
        }
        guard !others.isEmpty else { return verdicts }
        return verdicts.map { verdict in
            guard let twins = others[verdict.registration] else { return verdict }
            let list = twins.map { "#\($0.id) at \($0.callsite)" }.joined(separator: ", ")
            let subject = rows[registrationSlots[verdict.registration]!].observer.map { "observer \($0)" } ?? "block"
            return ExplanationVerdict(
                registration: verdict.registration, site: verdict.site, name: verdict.name, center: verdict.center,
                reason: .delivered,
                detail: verdict.detail + "; duplicate: the same \(subject) ran again for this post through \(list)")
        }
    }

    func threadLabel(_ id: UInt64) -> String {
        thread(id).map { "\($0.name) (\(id))" } ?? "thread \(id)"
    }
}
