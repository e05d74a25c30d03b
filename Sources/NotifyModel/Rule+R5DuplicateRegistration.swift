import NotifyEvents

/// R5 DUPLICATE_REGISTRATION: the same observer registered again for the same thing while the
/// first registration is live, so one post runs its handler more than once.
///
/// "The same": same owner object, name, object filter and callsite. For registrations with no
/// owner (blocks, sequences) the fallback is the same name, filter and callsite with both tokens
/// held, which per-instance cells legitimately share. Key: name and callsite. Severity: warning
/// (owner-keyed), info (fallback); when one post runs handlers of the key more than once,
/// owner-keyed escalates to error and the fallback to warning. A duplicate of a self-capturing
/// owner is folded into its R4. Resolved when no key of the callsite has two live members.
extension InspectorState {
    func duplicateKey(_ row: ObserverRow) -> DuplicateKey? {
        if let owner = row.observer {
            return DuplicateKey(
                owner: owner.id, nameSlot: row.nameSlot, object: row.objectFilter?.id, callsite: row.callsite.id)
        }
        guard row.kind == .block || row.kind == .sequence, row.token == .held else { return nil }
        return DuplicateKey(owner: nil, nameSlot: row.nameSlot, object: row.objectFilter?.id, callsite: row.callsite.id)
    }

    private func duplicateFindingKey(_ row: ObserverRow) -> LeakFindingKey {
        LeakFindingKey(
            rule: .duplicateRegistration, subject: .nameAtCallsite(row.displayName, callsite: row.callsite.id))
    }

    mutating func duplicateRegistered(_ slot: Int, _ row: ObserverRow) {
        guard configuration.rules.runs(.duplicateRegistration), let key = duplicateKey(row) else { return }
        rows[slot].flags.insert(.grouped)
        ruleState.duplicates[key, default: DuplicateGroup()].members.append(row.id)
        let group = ruleState.duplicates[key]!
        guard group.members.count >= 2 else { return }
        let crossed = group.members.count == 2
        for member in group.members {
            if let memberSlot = registrationSlots[member] { rows[memberSlot].flags.insert(.duplicated) }
        }
        if crossed, row.capturesObserverStrongly, let owner = row.observer,
           selfRetainingFold(.duplicateRegistration, owner: owner.id,
                             detail: "registered again at \(row.callsite) while live") {
            ruleState.duplicates[key]!.foldedIntoSelfRetaining = true
        }
        guard !ruleState.duplicates[key]!.foldedIntoSelfRetaining,
              allows(.duplicateRegistration, callsite: row.callsite, name: row.displayName) else { return }
        let ownerKeyed = key.owner != nil
        let count = group.members.count
        let members = group.members
        findingStore.raise(
            duplicateFindingKey(row), severity: ownerKeyed ? .warning : .info,
            summary: (ownerKeyed ? "\(row.observer!.typeName) registered" : "registrations with no owner made")
                + " \(count) times for \"\(row.displayName)\" at \(row.callsite) while the first is live",
            at: now
        ) { finding in
            finding.evidence.name = row.displayName
            finding.evidence.callsite = row.callsite
            finding.evidence.observer = row.observer
            finding.evidence.objectFilter = row.objectFilter
            for member in members { finding.evidence.addRegistration(member) }
            finding.evidence.count = max(finding.evidence.count, UInt64(count))
            if crossed { finding.evidence.liveCount += 1 }
            finding.evidence.detail = ownerKeyed ? "same owner, name, filter and callsite"
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
        let row = rows[slot]
        rows[slot].flags.remove([.grouped, .duplicated])
        let key = DuplicateKey(
            owner: row.observer?.id, nameSlot: row.nameSlot, object: row.objectFilter?.id, callsite: row.callsite.id)
        guard var group = ruleState.duplicates.removeValue(forKey: key) else { return }
        group.members.removeAll { $0 == row.id }
        if group.members.count == 1 {
            if let last = registrationSlots[group.members[0]] { rows[last].flags.remove(.duplicated) }
            if !group.foldedIntoSelfRetaining {
                let findingKey = duplicateFindingKey(row)
                var cleared = false
                findingStore.update(findingKey) { finding in
                    finding.evidence.liveCount -= 1
                    cleared = finding.evidence.liveCount <= 0
                }
                if cleared { findingStore.resolve(findingKey, at: now) }
            }
            group.foldedIntoSelfRetaining = false
        }
        if !group.members.isEmpty { ruleState.duplicates[key] = group }
    }

    mutating func duplicateDelivered(_ slot: Int, postID: UInt64) {
        let row = rows[slot]
        guard let key = duplicateKey(row), ruleState.duplicates[key] != nil else { return }
        var runs = 1
        if ruleState.duplicates[key]!.currentPost == postID {
            ruleState.duplicates[key]!.runsInPost += 1
            runs = ruleState.duplicates[key]!.runsInPost
        } else {
            ruleState.duplicates[key]!.currentPost = postID
            ruleState.duplicates[key]!.runsInPost = 1
        }
        guard runs >= 2 else { return }
        if ruleState.duplicates[key]!.foldedIntoSelfRetaining, let owner = row.observer {
            selfRetainingFold(.duplicateRegistration, owner: owner.id, detail: "", fanOut: runs)
            return
        }
        let severity: LeakSeverity = key.owner != nil ? .error : .warning
        let time = now
        findingStore.update(duplicateFindingKey(row)) { finding in
            if severity > finding.severity { finding.severity = severity }
            finding.evidence.fanOut = max(finding.evidence.fanOut, runs)
            finding.lastSeen = time
        }
    }
}
