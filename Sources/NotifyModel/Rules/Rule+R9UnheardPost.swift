import NotifyWire

/// R9 UNHEARD_POST: a name posted with no registration matching (wildcards included) where that
/// looks like a mistake, not a broadcast nobody listens to right now.
///
/// Two cases. A typo: a name that is or was registered is near the posted one
/// (``NameSimilarity``); warning, raised at the post, or when the near name first registers.
/// Abandoned: the name had observers, all went away, and posts go on unheard
/// (``LeakRuleConfiguration/unheardAbandonedPosts`` in a row with no observer); info. A name never
/// observed, or observed by screens that come and go, is not reported. Key: the name; every
/// unheard post of it adds to the count. Hysteresis: once open, the finding stays open through
/// observer churn and resolves only when ``LeakRuleConfiguration/unheardResolvedPosts`` posts in
/// a row are heard. Names in ``LeakRuleConfiguration/unheardAllowlist`` are never reported.
///
/// Typed messages, by type name: only the abandoned case. A type name cannot be misspelled (the
/// compiler checks it), so no near-name typo is reported for a message type, and notification
/// names and message types are never taken for typos of each other.
extension InspectorState {
    mutating func unheardPosted(_ post: TracePost, nameSlot: Int) {
        let rules = configuration.rules
        guard rules.runs(.unheardPost), !rules.unheardAllowlist.contains(post.name) else { return }
        let key = LeakFindingKey(rule: .unheardPost, subject: .name(post.name))
        let site = definitions.callsite(post.callsite)
        var track = unheardTrack(nameSlot, post.name)
        track.heardPosts = 0
        let observed = nameRows[nameSlot].everRegistered
        let abandoned = observed && nameRows[nameSlot].liveObservers == 0 && nameRows[0].liveObservers == 0
        track.silentPosts = abandoned ? track.silentPosts + 1 : 0
        defer { ruleState.unheard[nameSlot] = track }

        if findingStore.isOpen(key) {
            let time = now
            findingStore.update(key) { finding in
                finding.occurrences += 1
                finding.lastSeen = time
                finding.evidence.count += 1
                finding.evidence.addRelated(site)
                finding.evidence.addThread(post.thread)
            }
            return
        }
        var near: (name: String, distance: Int)?
        if post.message == nil, track.checkedNames != ruleState.registeredNames {
            track.checkedNames = ruleState.registeredNames
            near = nearestRegistered(to: post.name)
        }
        guard near != nil || track.silentPosts >= rules.unheardAbandonedPosts,
            allows(.unheardPost, callsite: site, name: post.name)
        else { return }
        let count = near == nil ? UInt64(track.silentPosts) : 1
        raiseUnheard(post.name, near: near, count: count, site: site, thread: post.thread)
    }

    /// Posts of the name that matched no registration, from history: they add to an open finding,
    /// and raise one when a registered name is near (a typo). Whether observers had gone away
    /// before them (the abandoned case) history does not tell, so that case is left unjudged.
    mutating func unheardInHistory(_ name: String, nameSlot: Int, count: UInt64, thread: UInt64) {
        let rules = configuration.rules
        guard rules.runs(.unheardPost), !rules.unheardAllowlist.contains(name) else { return }
        let key = LeakFindingKey(rule: .unheardPost, subject: .name(name))
        if findingStore.isOpen(key) {
            let time = now
            findingStore.update(key) { finding in
                finding.occurrences += 1
                finding.lastSeen = time
                finding.evidence.count += count
                finding.evidence.addThread(thread)
            }
            return
        }
        guard !nameRows[nameSlot].isMessage, let near = nearestRegistered(to: name),
            allows(.unheardPost, callsite: nil, name: name)
        else { return }
        raiseUnheard(name, near: near, count: count, site: nil, thread: thread)
    }

    /// A post of the name was heard: the abandoned run ends, and an open finding counts toward
    /// resolving.
    mutating func unheardPostHeard(_ post: TracePost, nameSlot: Int) {
        guard var track = ruleState.unheard[nameSlot], track.name == post.name else { return }
        track.silentPosts = 0
        let key = LeakFindingKey(rule: .unheardPost, subject: .name(post.name))
        if findingStore.isOpen(key) {
            track.heardPosts += 1
            if track.heardPosts >= configuration.rules.unheardResolvedPosts {
                findingStore.resolve(key, at: now)
                track.heardPosts = 0
                track.checkedNames = .max
            }
        }
        ruleState.unheard[nameSlot] = track
    }

    /// A name registered for the first time: an unheard name near it was likely a typo of it.
    mutating func unheardPostRegistered(_ slot: Int, _ row: ObserverRow, firstTimeForName: Bool) {
        guard firstTimeForName, let name = row.name, configuration.rules.runs(.unheardPost), !row.isMessage else {
            return
        }
        ruleState.registeredNames &+= 1
        let maximum = configuration.rules.nearNameDistance
        for index in nearNameCandidates(to: name, among: \.unheardNames) {
            let posted = nameRows[index]
            guard posted.occupied, !posted.isMessage, posted.postsWithNoObserver > 0, !posted.everRegistered,
                !configuration.rules.unheardAllowlist.contains(posted.name),
                let distance = NameSimilarity.nearness(posted.name, name, maximumDistance: maximum)
            else { continue }
            let key = LeakFindingKey(rule: .unheardPost, subject: .name(posted.name))
            if findingStore.isOpen(key) {
                findingStore.update(key) { finding in
                    guard finding.severity < .warning else { return }
                    finding.severity = .warning
                    finding.evidence.nearestName = name
                    finding.evidence.nearestDistance = distance
                    finding.summary = Self.unheardSummary(posted.name, near: name)
                }
                continue
            }
            let site = posted.recentPosters.last.map { definitions.callsite($0) }
            guard allows(.unheardPost, callsite: site, name: posted.name) else { continue }
            raiseUnheard(
                posted.name, near: (name, distance), count: posted.postsWithNoObserver, site: site,
                thread: posted.lastPostThread)
        }
    }

    private mutating func raiseUnheard(
        _ name: String, near: (name: String, distance: Int)?, count: UInt64, site: CallsiteInfo?, thread: UInt64?
    ) {
        let key = LeakFindingKey(rule: .unheardPost, subject: .name(name))
        findingStore.raise(
            key, severity: near == nil ? .info : .warning, summary: Self.unheardSummary(name, near: near?.name),
            at: now
        ) { finding in
            finding.evidence.name = name
            finding.evidence.callsite = finding.evidence.callsite ?? site
            finding.evidence.count += count
            finding.evidence.addRelated(site)
            if let thread { finding.evidence.addThread(thread) }
            if let near {
                finding.evidence.nearestName = near.name
                finding.evidence.nearestDistance = near.distance
                finding.evidence.detail = "typo: near a registered name"
            } else {
                finding.evidence.detail = "abandoned: its observers all went away and posts go on"
            }
        }
    }

    private static func unheardSummary(_ name: String, near: String?) -> String {
        near.map { "\"\(name)\" was posted with no observers; did you mean \"\($0)\"?" }
            ?? "\"\(name)\" is still posted, but all its observers went away"
    }

    private mutating func nearestRegistered(to name: String) -> (name: String, distance: Int)? {
        let registered = nearNameCandidates(to: name, among: \.registeredNameIndex).map { nameRows[$0] }
            .filter { $0.occupied && $0.everRegistered && !$0.isWildcard && !$0.isMessage }.map(\.name)
        return NameSimilarity.nearest(
            to: name, among: registered, maximumDistance: configuration.rules.nearNameDistance)
    }

    /// The name's R9 tracking, fresh when its slot held another name.
    private func unheardTrack(_ slot: Int, _ name: String) -> UnheardTrack {
        if let track = ruleState.unheard[slot], track.name == name { return track }
        return UnheardTrack(name: name)
    }
}
