import NotifyWire

extension InspectorState {
    /// Why `row` did or did not run for `post`: the first cause that applies, in the order a
    /// center decides (name, lifetime, object filter), then what happened after matching.
    func verdict(
        _ post: ExplainIndex.Post, row: ObserverRow, links: [ExplainIndex.Link], complete: Bool,
        nameNotes: inout [String: String]
    ) -> ExplanationVerdict {
        func make(_ reason: ExplanationReason, _ detail: String) -> ExplanationVerdict {
            ExplanationVerdict(
                registration: row.id, site: row.callsite, name: row.displayName, reason: reason, detail: detail)
        }
        let own = links.filter { $0.registration == row.id }
        let runs = own.filter { $0.kind == .delivered }
        if let first = runs.first {
            var detail = "ran on \(threadLabel(first.thread))"
            if first.wait > 0 { detail += " after waiting \(ExplainText.duration(first.wait))" }
            if first.thread != post.thread { detail += ", posted on \(threadLabel(post.thread))" }
            if runs.count > 1 { detail += "; ran \(runs.count) times for this one post" }
            return make(.delivered, detail)
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
            return make(
                removal.reason == .observerDeallocated ? .ownerDead : .objectDead,
                "\(who) was found dead and the registration ended \(ExplainText.duration(removal.at - post.time)) "
                    + "after the post, without running for it")
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
        _ row: ObserverRow, removal: RemovalInfo, before post: ExplainIndex.Post,
        make: (ExplanationReason, String) -> ExplanationVerdict
    ) -> ExplanationVerdict {
        let when = "\(ExplainText.duration(post.time - removal.at)) before the post, on \(threadLabel(removal.thread))"
        switch removal.reason {
        case .observerDeallocated:
            let owner = row.observer.map { ExplainText.object($0) } ?? "its owner"
            return make(.ownerDead, "\(owner) died \(when), which ended it")
        case .objectDeallocated:
            var detail = "its object filter \(row.objectFilter.map { ExplainText.object($0) } ?? "?") died \(when)"
            if let filter = row.objectFilter, let posted = post.object.map({ definitions.object($0) }),
                posted.id != filter.id, posted.address == filter.address, filter.address != 0
            {
                detail += "; the posted \(ExplainText.object(posted)) took its address"
            }
            return make(.objectDead, detail)
        case .sequenceEnded:
            return make(.tokenDropped, "its sequence ended \(when): the iterator was released")
        case .tokenCancelled:
            return make(
                .removedBefore,
                "ended through its token \(when); unknown: the trace does not carry whether the token was "
                    + "cancelled or released, nor the site")
        case .explicit:
            return make(
                .removedBefore, "removeObserver ended it \(when); unknown: the trace does not carry the removal's site")
        }
    }

    /// Replays the registration's enqueues and deliveries among the kept posts of the name: true
    /// when a full buffer dropped `post`'s message.
    private func bufferDropped(_ post: ExplainIndex.Post, registration: UInt64) -> Bool {
        let events = keptPosts(named: post.name).flatMap { explainIndex.links(of: $0).links }
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
