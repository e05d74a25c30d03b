import NotifyWire

extension InspectorState {
    /// Why `row` did or did not run for `post`, given `own`, the post's kept links to `row` in
    /// order: the first cause that applies, in the order a center decides (its center, name,
    /// lifetime, object filter), then what happened after matching.
    func verdict(
        _ post: PostHistory.Post, row: ObserverRow, own: [PostHistory.Link], complete: Bool,
        nameNotes: inout [String: String]
    ) -> ExplanationVerdict {
        let several = carriesSeveralCenters
        func make(_ reason: ExplanationReason, _ detail: String) -> ExplanationVerdict {
            ExplanationVerdict(
                registration: row.id, site: row.callsite, name: row.displayName,
                center: several ? centerLabel(row.center) : nil, reason: reason, detail: detail)
        }
        let runs = own.filter { $0.kind == .delivered }
        if let first = runs.first {
            var detail = "ran on \(threadLabel(first.thread))"
            if first.wait > 0 { detail += " after waiting \(ExplainText.duration(first.wait))" }
            if first.thread != post.thread { detail += ", posted on \(threadLabel(post.thread))" }
            if runs.count > 1 { detail += "; ran \(runs.count) times for this one post" }
            return make(.delivered, detail)
        }
        if several, row.center != post.center {
            // A post reaches the registrations of its own center only, whatever else is true.
            return make(
                .otherCenter,
                "registered on center \"\(centerLabel(row.center))\"; the post went to center "
                    + "\"\(centerLabel(post.center))\"")
        }
        if let observed = row.name, observed != post.name {
            if let note = nameNotes[observed] { return make(.nameDiffers, note) }
            let how =
                observed.lowercased() == post.name.lowercased()
                ? "differs only in case"
                : "edit distance \(NameSimilarity.distance(Array(observed.unicodeScalars), Array(post.name.unicodeScalars)))"
            let note = "observes \"\(observed)\", posted \"\(post.name)\" (\(how))"
            nameNotes[observed] = note
            return make(.nameDiffers, note)
        }
        if row.registeredAt > post.time {
            return make(
                .registeredAfter,
                "registered \(ExplainText.duration(row.registeredAt - post.time)) after the post, at \(row.callsite)")
        }
        if let removal = row.removal, removal.at <= post.time {
            return ended(row, removal: removal, before: post, make: make)
        }
        if let filter = row.objectFilter, filter.id != post.object {
            let posted = post.object.map { ExplainText.object(definitions.object($0)) } ?? "no object"
            return make(.objectDiffers, "filters on \(ExplainText.object(filter)), posted \(posted)")
        }
        if let removal = row.removal, removal.reason == .observerDeallocated || removal.reason == .objectDeallocated {
            // The center finds a dead owner or filter object when a post reaches it, skips it and
            // ends the registration then: the end is reported after the post it missed.
            let who =
                removal.reason == .observerDeallocated
                ? row.observer.map { ExplainText.object($0) } ?? "its owner"
                : "its object filter " + (row.objectFilter.map { ExplainText.object($0) } ?? "?")
            var detail =
                "\(who) was found dead and the registration ended \(ExplainText.duration(removal.at - post.time)) "
                + "after the post, without running for it"
            if removal.reason == .objectDeallocated {
                if let death = explainFacts.filterDeaths[row.id] {
                    detail += "; " + deathWindow(death, relativeTo: post.time)
                }
                if let taker = addressTaker(of: row, after: row.registeredAt, name: post.name) {
                    detail += "; " + taker
                }
            }
            return make(removal.reason == .observerDeallocated ? .ownerDead : .objectDead, detail)
        }
        if let queued = own.last {
            if bufferDropped(post, registration: row.id) {
                return make(.bufferDropped, "its full sequence buffer dropped this message to take a newer one")
            }
            return make(
                .stillQueued,
                "queued for it on \(threadLabel(queued.thread)) (\(row.kind.rawValue)); no delivery by the trace's end")
        }
        switch row.target {
        case .dispatchQueue, .thread, .main, .task:
            let label = row.targetLabel.map { " \"\($0)\"" } ?? ""
            return make(
                .stillQueued,
                "handed to its \(row.target.rawValue)\(label), which never ran it before the trace's end")
        case .posting, .operationQueue:
            break
        }
        if !complete {
            return make(.unknown, "no delivery kept: older deliveries of this post were overwritten")
        }
        if eventsLost > 0 {
            return make(.unknown, "no deliver line; \(eventsLost) events were lost in gaps, it may be among them")
        }
        return make(.unknown, "it matched, but the trace has no deliver line for it and does not say why")
    }

    private func ended(
        _ row: ObserverRow, removal: RemovalInfo, before post: PostHistory.Post,
        make: (ExplanationReason, String) -> ExplanationVerdict
    ) -> ExplanationVerdict {
        let when = "\(ExplainText.duration(post.time - removal.at)) before the post, on \(threadLabel(removal.thread))"
        let site = removal.callsite.map { " at \(definitions.callsite($0))" } ?? ""
        let siteUnknown = traceCarriesWhy ? "" : "; the trace (before 1.5) does not carry the call's site"
        switch removal.reason {
        case .centerDeallocated:
            return make(.ownerDead, "its center died \(when), which ended it")
        case .observerDeallocated:
            let owner = row.observer.map { ExplainText.object($0) } ?? "its owner"
            return make(.ownerDead, "\(owner) died \(when), which ended it")
        case .objectDeallocated:
            let filter = row.objectFilter.map { ExplainText.object($0) } ?? "?"
            var detail: String
            if let death = explainFacts.filterDeaths[row.id] {
                detail =
                    "its object filter \(filter) " + deathWindow(death, relativeTo: post.time)
                    + ", which ended it"
            } else {
                detail = "its object filter \(filter) was found dead \(when), which ended it"
                if !traceCarriesWhy { detail += " (the trace, before 1.5, does not say when it died)" }
            }
            if let taker = addressTaker(of: row, after: row.registeredAt, name: post.name) { detail += "; " + taker }
            return make(.objectDead, detail)
        case .sequenceEnded:
            return make(
                .tokenDropped,
                "its sequence ended \(when): its iterator was released (or its task cancelled), no call ended it")
        case .tokenCancelled where removal.callsite == nil && traceCarriesWhy:
            // From 1.5 a cancel() names its site: a token end with none is a released token
            // (a typed message's `ObservationToken`, which ends its registration when released).
            return make(.tokenDropped, "its token was released without cancel() \(when), which ended it")
        case .tokenCancelled:
            return make(.removedBefore, "cancel() on its token\(site) ended it \(when)\(siteUnknown)")
        case .explicit:
            return make(.removedBefore, "removeObserver\(site) ended it \(when)\(siteUnknown)")
        }
    }

    /// When a filter died, as the trace bounds it: alive at one time, found dead at a later one.
    private func deathWindow(_ death: ExplainFacts.FilterDeath, relativeTo time: UInt64) -> String {
        "died between \(ExplainText.moment(death.aliveAt, relativeTo: time)) the post, when it was last seen "
            + "alive, and \(ExplainText.moment(death.foundAt, relativeTo: time)) it, when it was found dead"
    }

    /// "a new `Type #id` took its address, posted … ": the first kept post of `name` whose object
    /// is another object at the address `row` filters on, made after `time`.
    func addressTaker(of row: ObserverRow, after time: UInt64, name: String) -> String? {
        guard let filter = row.objectFilter, filter.address != 0 else { return nil }
        for post in keptPosts(named: name) where post.time >= time {
            guard let id = post.object, id != filter.id else { continue }
            let object = definitions.object(id)
            guard object.address == filter.address else { continue }
            var text =
                "a new \(ExplainText.object(object)) took its address, posted at \(definitions.callsite(post.callsite))"
            if let death = explainFacts.filterDeaths[row.id] {
                text += " \(ExplainText.moment(post.time, relativeTo: death.foundAt)) its filter was found dead"
            }
            return text
        }
        return nil
    }

    /// Replays the registration's enqueues and deliveries among the kept posts of the name: true
    /// when a full buffer dropped `post`'s message.
    private func bufferDropped(_ post: PostHistory.Post, registration: UInt64) -> Bool {
        let events = keptPosts(named: post.name).flatMap { history.links(of: $0).links }
            .filter { $0.registration == registration }.sorted { $0.seq < $1.seq }
        guard events.contains(where: { $0.kind == .enqueuedDroppingOldest }) else { return false }
        var pending: [UInt64] = []
        for event in events {
            switch event.kind {
            case .enqueued: pending.append(event.postID)
            case .enqueuedDroppingOldest:
                if let dropped = pending.first {
                    if dropped == post.postID { return true }
                    pending.removeFirst()
                }
                pending.append(event.postID)
            case .delivered:
                if let index = pending.firstIndex(of: event.postID) { pending.remove(at: index) }
            }
        }
        return false
    }
}

/// Text pieces of an explanation.
enum ExplainText {
    /// `App.Screen #7 @0x10`.
    static func object(_ object: ObjectInfo) -> String {
        "\(object.typeName) #\(object.id) @0x\(String(object.address, radix: 16))"
    }

    /// `3.2 ms before`, `1 s after`, `at the same time as`: `time` relative to `reference`, with
    /// the reference's name for a person to add.
    static func moment(_ time: UInt64, relativeTo reference: UInt64) -> String {
        if time == reference { return "right at" }
        return time < reference
            ? "\(duration(reference - time)) before" : "\(duration(time - reference)) after"
    }

    /// `850 ns`, `12.5 µs`, `3.2 ms`, `1.50 s`.
    static func duration(_ nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds)
        switch nanoseconds {
        case ..<1_000: return "\(nanoseconds) ns"
        case ..<1_000_000: return "\(rounded(value / 1e3)) µs"
        case ..<1_000_000_000: return "\(rounded(value / 1e6)) ms"
        default: return "\(rounded(value / 1e9)) s"
        }
    }

    private static func rounded(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))" : "\(tenths)"
    }
}
