/// R10 NEVER_POSTED: observers wait for a name nobody has posted in this session.
///
/// At each checkpoint, a name with live observers and no post so far counts one more wait; once
/// it has waited ``LeakRuleConfiguration/neverPostedCheckpoints`` checkpoints or
/// ``LeakRuleConfiguration/neverPostedAfter`` of stream time, it is reported. Key: the name.
/// Severity: info; warning when a posted name is near it (Reachability#163). Evidence includes
/// the session's post count, since a quiet session makes this rule noisy. Resolved when the name
/// is first posted, or when its last observer goes.
///
/// Typed messages, by type name: observers of a message type nobody posts are reported the same
/// way, at info; no near name is suggested (a type name cannot be misspelled), and notification
/// names and message types are never offered for each other.
///
/// A name posted, but only to other centers than an observer's, is the variant in
/// `Rule+R10OtherCenter.swift`.
extension InspectorState {
    /// A name gained an observer: while it has observers and no post, checkpoints count its wait.
    mutating func neverPostedRegistered(_ slot: Int) {
        guard slot != 0, nameRows[slot].posts == 0 else { return }
        ruleState.neverPostedWaiting.insert(slot)
    }

    /// - Complexity: O(names waiting), not O(names).
    mutating func neverPostedCheckpoint() {
        let rules = configuration.rules
        guard rules.runs(.neverPosted) else { return }
        for slot in ruleState.neverPostedWaiting.sorted() {
            let row = nameRows[slot]
            guard row.occupied, !row.isWildcard, row.liveObservers > 0, row.posts == 0 else {
                ruleState.neverPostedWaiting.remove(slot)
                continue
            }
            nameRows[slot].checkpointsWaiting += 1
            let waited = now - min(now, row.liveSince ?? now)
            let checkpoints = nameRows[slot].checkpointsWaiting
            guard checkpoints >= rules.neverPostedCheckpoints || waited >= rules.neverPostedAfter else { continue }
            raiseNeverPosted(slot, waited: waited, checkpoints: checkpoints)
        }
    }

    /// Counts the checkpoints that passed before the stream while a name never posted (history
    /// included) had observers, from its oldest live registration's true time.
    mutating func neverPostedCatchUp() {
        guard configuration.rules.runs(.neverPosted) else { return }
        for slot in nameRows.indices {
            let row = nameRows[slot]
            guard row.occupied, !row.isWildcard, row.liveObservers > 0, row.posts == 0, let since = row.liveSince
            else { continue }
            nameRows[slot].checkpointsWaiting += pastCheckpoints(from: since, to: .max)
        }
    }

    private mutating func raiseNeverPosted(_ slot: Int, waited: UInt64, checkpoints: Int) {
        let name = nameRows[slot].name
        let key = LeakFindingKey(rule: .neverPosted, subject: .name(name))
        let sessionPosts = totals.posts
        if findingStore.isOpen(key) {
            findingStore.update(key) { finding in
                finding.evidence.count = UInt64(checkpoints)
                finding.evidence.duration = waited
                finding.evidence.sessionPosts = sessionPosts
            }
            return
        }
        let live = rows.filter { $0.occupied && $0.isLive && $0.name == name }
        guard let oldest = live.min(by: { $0.registeredAt < $1.registeredAt }),
            allows(.neverPosted, callsite: oldest.callsite, name: name)
        else { return }
        let kept = live.suffix(16).map { (id: $0.id, center: $0.center) }
        let near = nameRows[slot].isMessage ? nil : nearestPosted(to: name)
        findingStore.raise(
            key, severity: near == nil ? .info : .warning,
            summary: "\"\(name)\" is observed at \(oldest.callsite) but was never posted"
                + (near.map { "; \"\($0.name)\" is posted" } ?? ""),
            at: now
        ) { finding in
            finding.evidence.name = name
            finding.evidence.callsite = oldest.callsite
            finding.evidence.observer = oldest.observer
            for row in kept { finding.evidence.addRegistration(row.id, center: row.center) }
            finding.evidence.count = UInt64(checkpoints)
            finding.evidence.duration = waited
            finding.evidence.sessionPosts = sessionPosts
            if let near {
                finding.evidence.nearestName = near.name
                finding.evidence.nearestDistance = near.distance
            }
        }
    }

    /// A name posted for the first time may be the near name an open finding at info lacked: it
    /// becomes a warning, as if the post had come before the finding was raised, so its severity
    /// does not depend on how much stream time passed before the near name's first post.
    private mutating func neverPostedNearNamePosted(_ slot: Int) {
        let posted = nameRows[slot]
        guard !posted.isWildcard, !posted.isMessage else { return }
        let maximum = configuration.rules.nearNameDistance
        for waiting in ruleState.neverPostedWaiting where waiting != slot && !nameRows[waiting].isMessage {
            let name = nameRows[waiting].name
            let key = LeakFindingKey(rule: .neverPosted, subject: .name(name))
            guard findingStore.isOpen(key),
                let near = NameSimilarity.nearest(to: name, among: [posted.name], maximumDistance: maximum)
            else { continue }
            findingStore.update(key) { finding in
                guard finding.severity == .info else { return }
                finding.severity = .warning
                finding.summary += "; \"\(near.name)\" is posted"
                finding.evidence.nearestName = near.name
                finding.evidence.nearestDistance = near.distance
            }
        }
    }

    private mutating func nearestPosted(to name: String) -> (name: String, distance: Int)? {
        let posted = nearNameCandidates(to: name, among: \.postedNameIndex).map { nameRows[$0] }
            .filter { $0.occupied && $0.posts > 0 && !$0.isWildcard && !$0.isMessage }.map(\.name)
        return NameSimilarity.nearest(to: name, among: posted, maximumDistance: configuration.rules.nearNameDistance)
    }

    mutating func neverPostedFirstPost(_ slot: Int) {
        filePostedName(slot)
        nameRows[slot].checkpointsWaiting = 0
        neverPostedNearNamePosted(slot)
        findingStore.resolve(LeakFindingKey(rule: .neverPosted, subject: .name(nameRows[slot].name)), at: now)
    }

    mutating func neverPostedNameIdle(_ slot: Int) {
        guard slot != 0 else { return }
        findingStore.resolve(LeakFindingKey(rule: .neverPosted, subject: .name(nameRows[slot].name)), at: now)
    }
}
