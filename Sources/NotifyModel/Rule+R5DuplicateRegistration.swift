import NotifyWire

/// R5 DUPLICATE_REGISTRATION: the same observer registered again for the same thing while the
/// first registration is live, so one post runs its handler more than once.
///
/// "The same": same owner object, name and object filter, whatever the callsites (a screen that
/// subscribes in `init` and again in `viewDidLoad`). For registrations with no owner (blocks,
/// sequences) the fallback is the same name, filter and callsite with both tokens held, which
/// per-instance cells legitimately share. Key: the name at the group's first callsite, so every
/// instance of a screen adds to one finding; the evidence lists every callsite of the group.
/// Severity: warning (owner-keyed), info (fallback); when one post runs handlers of the group more
/// than once, owner-keyed escalates to error and the fallback to warning. A duplicate of a
/// self-capturing owner is folded into its R4. Resolved when no group of the key has two live
/// members. Typed message observers and message sequences have no owner in the trace: they take
/// the fallback key, the message type standing for the name and the subject for the filter.
extension InspectorState {
    /// The group `row` belongs to, ignoring whether its token is still held.
    private func groupKey(_ row: ObserverRow) -> DuplicateKey {
        DuplicateKey(
            owner: row.observer?.id, nameSlot: row.nameSlot, object: row.objectFilter?.id,
            callsite: row.observer == nil ? row.callsite.id : 0)
    }

    func duplicateKey(_ row: ObserverRow) -> DuplicateKey? {
        if row.observer != nil { return groupKey(row) }
        guard row.kind == .block || row.kind == .sequence || row.kind.isMessage, row.token == .held else {
            return nil
        }
        return groupKey(row)
    }

    mutating func duplicateRegistered(_ slot: Int, _ row: ObserverRow) {
        guard configuration.rules.runs(.duplicateRegistration), let key = duplicateKey(row) else { return }
        rows[slot].flags.insert(.grouped)
        // One lookup: a lone member (the usual case) needs nothing more.
        let joined = ruleState.duplicates[
            key,
            default: DuplicateGroup(
                findingKey: LeakFindingKey(
                    rule: .duplicateRegistration,
                    subject: .nameAtCallsite(row.displayName, callsite: row.callsite.id)))
        ].join(row.id)
        guard let group = joined else { return }
        let crossed = group.members.count == 2
        var sites: [CallsiteInfo] = []
        for member in group.members {
            guard let memberSlot = registrationSlots[member] else { continue }
            rows[memberSlot].flags.insert(.duplicated)
            if !sites.contains(rows[memberSlot].callsite) { sites.append(rows[memberSlot].callsite) }
        }
        var folded = group.foldedIntoSelfRetaining
        if crossed, row.capturesObserverStrongly, let owner = row.observer,
            selfRetainingFold(
                .duplicateRegistration, owner: owner.id,
                detail: "registered again at \(row.callsite) while live")
        {
            ruleState.duplicates[key]!.foldedIntoSelfRetaining = true
            folded = true
        }
        guard !folded, allows(.duplicateRegistration, callsite: sites.first ?? row.callsite, name: row.displayName)
        else { return }
        let ownerKeyed = key.owner != nil
        let count = group.members.count
        let members = group.members
        findingStore.raise(
            group.findingKey, severity: ownerKeyed ? .warning : .info,
            summary: (ownerKeyed ? "\(row.observer!.typeName) registered" : "registrations with no owner made")
                + " \(count) times for \"\(row.displayName)\" at \(sites.map(\.description).joined(separator: ", "))"
                + " while the first is live",
            at: now
        ) { finding in
            finding.evidence.name = row.displayName
            finding.evidence.callsite = finding.evidence.callsite ?? sites.first
            finding.evidence.observer = row.observer
            finding.evidence.objectFilter = row.objectFilter
            for member in members { finding.evidence.addRegistration(member) }
            for site in sites { finding.evidence.addRelated(site) }
            finding.evidence.count = max(finding.evidence.count, UInt64(count))
            if crossed { finding.evidence.liveCount += 1 }
            finding.evidence.detail =
                ownerKeyed
                ? (sites.count > 1
                    ? "same owner, name and filter, registered at \(sites.count) callsites"
                    : "same owner, name, filter and callsite")
                : "fallback key (no owner): same callsite, name and filter with both tokens held"
        }
    }

    mutating func duplicateTokenDropped(_ slot: Int) {
        if rows[slot].observer == nil { duplicateLeaveGroup(slot) }
    }

    mutating func duplicateRemoved(_ slot: Int) {
        duplicateLeaveGroup(slot)
    }

    private mutating func duplicateLeaveGroup(_ slot: Int) {
        guard rows[slot].flags.contains(.grouped) else { return }
        rows[slot].flags.remove([.grouped, .duplicated])
        let id = rows[slot].id
        let key = groupKey(rows[slot])
        guard let index = ruleState.duplicates.index(forKey: key) else { return }
        ruleState.duplicates.values[index].members.removeAll { $0 == id }
        let remaining = ruleState.duplicates.values[index].members.count
        if remaining == 1 {
            let last = ruleState.duplicates.values[index].members[0]
            if let lastSlot = registrationSlots[last] { rows[lastSlot].flags.remove(.duplicated) }
            if !ruleState.duplicates.values[index].foldedIntoSelfRetaining {
                // Read into locals first: an argument read from `self` copies the whole state.
                let findingKey = ruleState.duplicates.values[index].findingKey
                let time = now
                findingStore.update(findingKey, resolvingAt: time) { finding in
                    finding.evidence.liveCount -= 1
                    return finding.evidence.liveCount <= 0
                }
            }
            ruleState.duplicates.values[index].foldedIntoSelfRetaining = false
        } else if remaining == 0 {
            ruleState.duplicates.remove(at: index)
        }
    }

    mutating func duplicateDelivered(_ slot: Int, postID: UInt64) {
        guard let key = duplicateKey(rows[slot]), let index = ruleState.duplicates.index(forKey: key) else { return }
        var runs = 1
        if ruleState.duplicates.values[index].currentPost == postID {
            ruleState.duplicates.values[index].runsInPost += 1
            runs = ruleState.duplicates.values[index].runsInPost
        } else {
            ruleState.duplicates.values[index].currentPost = postID
            ruleState.duplicates.values[index].runsInPost = 1
        }
        guard runs >= 2 else { return }
        if ruleState.duplicates.values[index].foldedIntoSelfRetaining, let owner = rows[slot].observer {
            selfRetainingFold(.duplicateRegistration, owner: owner.id, detail: "", fanOut: runs)
            return
        }
        let severity: LeakSeverity = key.owner != nil ? .error : .warning
        let time = now
        let findingKey = ruleState.duplicates.values[index].findingKey
        findingStore.update(findingKey) { finding in
            if severity > finding.severity { finding.severity = severity }
            finding.evidence.fanOut = max(finding.evidence.fanOut, runs)
            finding.lastSeen = time
        }
    }
}

extension DuplicateGroup {
    /// Adds a member; the group as it now stands once it has two or more, nil while alone.
    fileprivate mutating func join(_ id: UInt64) -> DuplicateGroup? {
        members.append(id)
        return members.count >= 2 ? self : nil
    }
}
