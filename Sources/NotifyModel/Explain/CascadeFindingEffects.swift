/// What a leak finding did to deliveries: the handler runs it caused (a duplicate's extra runs,
/// a leaked or orphaned registration's runs) and the posts it made a registration miss.
public struct FindingEffects: Sendable, Hashable {
    /// One delivery caused, or one post missed.
    public struct Effect: Sendable, Hashable {
        /// Whether the finding caused the run or prevented it.
        public let caused: Bool
        /// The post.
        public let post: PostInfo?
        /// The run, when it happened.
        public let delivery: CascadeDelivery?
        /// The registration.
        public let registration: UInt64
        /// Why the finding stands for it: an explanation reason or what the run was.
        public let reason: String
        /// The evidence, for a person.
        public let detail: String
    }

    /// Oldest first, caused and prevented interleaved by time.
    public let effects: [Effect]
    /// What the kept history cannot show.
    public let notes: [String]
}

extension InspectorState {
    /// The deliveries `finding` caused or prevented, from the kept cascades and explanations:
    /// R5 a duplicate's extra runs of one post; R1 an orphaned registration's runs after its
    /// token was dropped; R4, R6, R7, R8 the runs of the registrations involved; R2 and R3 the
    /// posts the ended registrations missed; R9 and R10 the posts a near name or another center made them miss.
    public func effects(of finding: LeakFinding) -> FindingEffects {
        let registrations = finding.evidence.registrations
        var effects: [FindingEffects.Effect] = []
        var notes: [String] = []
        switch finding.rule {
        case .duplicateRegistration:
            effects = duplicateRuns(Set(registrations))
        case .orphanedRegistration, .selfRetainingHandler, .registrationGrowth, .slowHandler, .threadMismatch:
            effects = runs(of: Set(registrations), rule: finding.rule)
        case .prematureRemoval, .deadParticipant:
            effects = missed(by: registrations) {
                [.removedBefore, .ownerDead, .objectDead, .tokenDropped].contains($0)
            }
        case .neverPosted:
            effects = missed(by: registrations) { $0 == .nameDiffers || $0 == .otherCenter }
        case .unheardPost:
            effects = unheard(finding.evidence.name ?? "")
        case .missedRemoval:
            notes.append("a removal that ended nothing changed no delivery; the registration it meant, if any, runs on")
        }
        if registrations.isEmpty && finding.rule != .unheardPost && finding.rule != .missedRemoval {
            notes.append("the finding names no registration")
        }
        if effects.isEmpty { notes.append("no delivery or post it affected is kept" + keptSuffix) }
        if eventsLost > 0 { notes.append("\(eventsLost) events were lost in gaps: some effects may be among them") }
        effects.sort { ($0.time, $0.registration) < ($1.time, $1.registration) }
        return FindingEffects(effects: effects, notes: notes)
    }

    private var keptSuffix: String {
        " (the history keeps the last \(history.capacity) posts and deliveries of all names; explanations list "
            + "each name's last \(configuration.explainPostsPerName) posts among them)"
    }

    /// For each post run more than once by a duplicated group, every run after the first.
    private func duplicateRuns(_ group: Set<UInt64>) -> [FindingEffects.Effect] {
        var firstRun: [UInt64: CascadeDelivery] = [:]
        var effects: [FindingEffects.Effect] = []
        for delivery in cascadeDeliveries(to: group) {
            guard let first = firstRun[delivery.postID] else {
                firstRun[delivery.postID] = delivery
                continue
            }
            effects.append(
                FindingEffects.Effect(
                    caused: true, post: cascadePost(id: delivery.postID), delivery: delivery,
                    registration: delivery.registration, reason: "extra run",
                    detail: "ran again for post \(delivery.postID): #\(first.registration) already ran for it"
                        + (first.site.map { " (registered at \($0))" } ?? "")))
        }
        return effects
    }

    private func runs(of group: Set<UInt64>, rule: LeakRule) -> [FindingEffects.Effect] {
        var dropped: [UInt64: UInt64] = [:]
        if rule == .orphanedRegistration {
            for id in group {
                if let row = registration(id), case .dropped(let at) = row.token { dropped[id] = at }
            }
        }
        return cascadeDeliveries(to: group).compactMap { delivery in
            var detail = "ran on \(delivery.threadName) for \(ExplainText.duration(delivery.duration))"
            switch rule {
            case .orphanedRegistration:
                guard let at = dropped[delivery.registration], delivery.start >= at else { return nil }
                detail += ", \(ExplainText.duration(delivery.start - at)) after its token was dropped"
            case .selfRetainingHandler: detail += " while its handler kept its owner alive"
            case .registrationGrowth: detail += "; one of the accumulating registrations"
            case .threadMismatch:
                // A main-only handler's runs on the main thread are not the mismatch.
                if registration(delivery.registration)?.mainThreadOnly == true, thread(delivery.thread)?.isMain == true
                {
                    return nil
                }
                detail += ", posted on \(threadLabel(delivery.postingThread))"
            default: break
            }
            return FindingEffects.Effect(
                caused: true, post: cascadePost(id: delivery.postID), delivery: delivery,
                registration: delivery.registration, reason: "run", detail: detail)
        }
    }

    private func missed(
        by registrations: [UInt64], where counts: (ExplanationReason) -> Bool
    ) -> [FindingEffects.Effect] {
        var effects: [FindingEffects.Effect] = []
        for id in registrations {
            guard let explanation = explain(registration: id) else { continue }
            var posts = explanation.posts
            if posts.isEmpty, let name = explanation.registration.name {
                // A registration waiting for a name nobody posts misses its near names' posts.
                posts += explain(name: name, registration: id).posts.filter { $0.post.name != name }
            }
            for post in posts {
                guard let verdict = post.considered.first(where: { $0.registration == id }), counts(verdict.reason)
                else { continue }
                effects.append(
                    FindingEffects.Effect(
                        caused: false, post: post.post, delivery: nil,
                        registration: id, reason: verdict.reason.rawValue, detail: verdict.detail))
            }
        }
        return effects
    }

    /// The posts of an unheard name, each with what could have heard it.
    private func unheard(_ name: String) -> [FindingEffects.Effect] {
        explain(name: name).posts.filter { $0.post.name == name }.flatMap { post in
            let missed = post.considered.filter { !$0.delivered }
            let cascade = post.post
            guard !missed.isEmpty else {
                return [
                    FindingEffects.Effect(
                        caused: false, post: cascade, delivery: nil, registration: 0, reason: "unheard",
                        detail: "no registration observes \"\(name)\" or a near name")
                ]
            }
            return missed.map {
                FindingEffects.Effect(
                    caused: false, post: cascade, delivery: nil, registration: $0.registration,
                    reason: $0.reason.rawValue, detail: $0.detail)
            }
        }
    }

}

extension FindingEffects.Effect {
    /// When the run started, or when the post was made.
    public var time: UInt64 { delivery?.start ?? post?.time ?? 0 }
}
