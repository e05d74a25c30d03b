import NotifyWire

/// R2 PREMATURE_REMOVAL: observation ended before it could matter.
///
/// (a) An async sequence's registration ended with no delivery and no post of its name in
/// between: the iterator was not kept (NotifyKit's counterpart of an unstored cancellable; its
/// tokens never auto-remove, so this is the only form of (a) it can produce); a typed message
/// sequence (`messages(of:for:bufferSize:)`) likewise. Key: callsite.
/// Warning. Stays open (it happened).
///
/// (b) An owner removed its last registration for a name, the name was posted one or more times,
/// then the same owner registered for it again (on the same center): it wanted those posts. Key: the name and the
/// re-registering callsite. Info, with the count of missed posts (in a stream of several centers,
/// those on the gap's center). Gaps are forgotten after
/// ``LeakRuleConfiguration/prematureRemovalWindow`` or when the owner deallocates.
extension InspectorState {
    mutating func prematureRemovalRemoved(_ slot: Int, _ row: ObserverRow, reason: TraceRemovalReason) {
        if reason == .sequenceEnded, row.kind == .sequence || row.kind == .messageSequence, row.deliveries == 0,
            allows(.prematureRemoval, callsite: row.callsite, name: row.displayName)
        {
            let posts = row.nameSlot == 0 ? totals.posts : nameRows[row.nameSlot].posts
            if posts == row.namePostsAtRegistration {
                let lifetime = row.age(at: now)
                findingStore.raise(
                    LeakFindingKey(rule: .prematureRemoval, subject: .callsite(row.callsite.id)), severity: .warning,
                    summary: "sequence for \"\(row.displayName)\" at \(row.callsite) ended before any post: "
                        + "its iterator was not kept",
                    at: now
                ) { finding in
                    finding.evidence.name = row.displayName
                    finding.evidence.callsite = row.callsite
                    finding.evidence.addRegistration(row.id, center: row.center)
                    finding.evidence.count += 1
                    finding.evidence.duration = lifetime
                    finding.evidence.detail = "lived \(lifetime) ns with no delivery"
                }
            }
        }
        guard let owner = row.observer?.id, let name = row.name else { return }
        let key = OwnerName(owner: owner, nameSlot: row.nameSlot, center: row.center)
        let remaining = (ruleState.ownerNames[key] ?? 1) - 1
        ruleState.ownerNames[key] = remaining > 0 ? remaining : nil
        if reason == .observerDeallocated {
            forgetRemovalGaps(of: owner)
            return
        }
        guard remaining == 0, reason == .explicit || reason == .tokenCancelled,
            configuration.rules.runs(.prematureRemoval)
        else { return }
        guard ruleState.removalGapCount < configuration.maximumRemovalGaps else {
            loss.refusedRemovalGaps &+= 1
            return
        }
        let gapKey = NameOnCenter(name: name, center: row.center)
        let gap = RemovalGap(
            removedAt: now,
            postsAtRemoval: carriesSeveralCenters
                ? ruleState.centerPosts[gapKey]?.posts ?? 0 : nameRows[row.nameSlot].posts,
            ownerType: row.observer?.typeName ?? "?", countsCenter: carriesSeveralCenters)
        if let replaced = ruleState.removalGaps[owner, default: [:]].updateValue(gap, forKey: gapKey) {
            if replaced.countsCenter { releaseCenterPosts(gapKey) }
        } else {
            ruleState.removalGapCount += 1
        }
        if gap.countsCenter { ruleState.centerPosts[gapKey, default: CenterPosts()].gaps += 1 }
    }

    /// Counts a post of `name` on `center` for the gaps waiting on them.
    mutating func prematureRemovalPosted(_ name: String, center: UInt32) {
        guard let index = ruleState.centerPosts.index(forKey: NameOnCenter(name: name, center: center)) else {
            return
        }
        ruleState.centerPosts.values[index].posts &+= 1
    }

    /// A gap on `key` closed: its center's count is dropped with the last gap waiting on it.
    private mutating func releaseCenterPosts(_ key: NameOnCenter) {
        guard let index = ruleState.centerPosts.index(forKey: key) else { return }
        ruleState.centerPosts.values[index].gaps -= 1
        if ruleState.centerPosts.values[index].gaps <= 0 { ruleState.centerPosts.remove(at: index) }
    }

    mutating func prematureRemovalRegistered(_ slot: Int, _ row: ObserverRow) {
        guard let owner = row.observer?.id, let name = row.name else { return }
        ruleState.ownerNames[OwnerName(owner: owner, nameSlot: row.nameSlot, center: row.center), default: 0] += 1
        let key = NameOnCenter(name: name, center: row.center)
        guard ruleState.removalGapCount > 0, let gap = ruleState.removalGaps[owner]?.removeValue(forKey: key)
        else { return }
        ruleState.removalGapCount -= 1
        if ruleState.removalGaps[owner]?.isEmpty == true { ruleState.removalGaps[owner] = nil }
        let posts = gap.countsCenter ? ruleState.centerPosts[key]?.posts ?? 0 : nameRows[row.nameSlot].posts
        if gap.countsCenter { releaseCenterPosts(key) }
        let missed = posts >= gap.postsAtRemoval ? posts - gap.postsAtRemoval : 0
        guard missed > 0, allows(.prematureRemoval, callsite: row.callsite, name: name) else { return }
        let posters = nameRows[row.nameSlot].recentPosters.map { definitions.callsite($0) }
        let absent = now - min(now, gap.removedAt)
        findingStore.raise(
            LeakFindingKey(rule: .prematureRemoval, subject: .nameAtCallsite(name, callsite: row.callsite.id)),
            severity: .info,
            summary: "\(gap.ownerType) stopped observing \"\(name)\", missed \(missed) post(s), "
                + "then registered again at \(row.callsite)",
            at: now
        ) { finding in
            finding.evidence.name = name
            finding.evidence.callsite = row.callsite
            finding.evidence.observer = row.observer
            finding.evidence.addRegistration(row.id, center: row.center)
            finding.evidence.count += missed
            finding.evidence.duration = absent
            for poster in posters { finding.evidence.addRelated(poster) }
            finding.evidence.detail = "not registered for \(absent) ns while the name was posted"
        }
    }

    private mutating func forgetRemovalGaps(of owner: UInt64) {
        guard ruleState.removalGapCount > 0, let gaps = ruleState.removalGaps.removeValue(forKey: owner) else { return }
        ruleState.removalGapCount -= gaps.count
        for (key, gap) in gaps where gap.countsCenter { releaseCenterPosts(key) }
    }

    mutating func expireRemovalGaps() {
        guard ruleState.removalGapCount > 0 else { return }
        let window = configuration.rules.prematureRemovalWindow
        let time = now
        var expired: [NameOnCenter] = []
        ruleState.removalGaps = ruleState.removalGaps.compactMapValues { gaps in
            let kept = gaps.filter { $0.value.removedAt &+ window > time }
            for (key, gap) in gaps where gap.countsCenter && kept[key] == nil { expired.append(key) }
            return kept.isEmpty ? nil : kept
        }
        for key in expired { releaseCenterPosts(key) }
        ruleState.removalGapCount = ruleState.removalGaps.values.reduce(0) { $0 + $1.count }
    }
}
