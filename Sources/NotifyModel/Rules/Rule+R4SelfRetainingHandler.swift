/// R4 SELF_RETAINING_HANDLER: the handler's closure context is its own observer, so the center
/// keeps the observer alive (the trace's `capturesObserverStrongly`, NotifyKit's context-identity
/// check, E3c).
///
/// Key: the owner object. Severity: warning ("suspected"); the "confirmed" level needs a
/// retain-count audit that the center does not report, so R4 never reaches error here. Evidence:
/// k (the owner's live self-capturing registrations), every callsite involved, and R1 and R5
/// findings of the same owner folded in. Resolved when k reaches 0: the owner removed them, or
/// finally deallocated. Suppressed for owner types marked immortal.
///
/// Typed message observers are closures with no owner object in the trace, so the center cannot
/// tell what they capture: R4 does not apply to them.
extension InspectorState {
    mutating func selfRetainingRegistered(_ slot: Int, _ row: ObserverRow) {
        guard row.capturesObserverStrongly, let owner = row.observer,
            allows(.selfRetainingHandler, callsite: row.callsite, name: row.displayName, ownerType: owner.typeName)
        else { return }
        rows[slot].flags.insert(.selfRetaining)
        ruleState.selfRetaining[owner.id, default: 0] += 1
        let k = ruleState.selfRetaining[owner.id]!
        findingStore.raise(
            LeakFindingKey(rule: .selfRetainingHandler, subject: .observer(owner.id)), severity: .warning,
            summary: "\(owner) is kept alive by its own handler for \"\(row.displayName)\" at \(row.callsite)",
            at: now
        ) { finding in
            finding.evidence.observer = owner
            finding.evidence.name = finding.evidence.name ?? row.displayName
            finding.evidence.callsite = finding.evidence.callsite ?? row.callsite
            finding.evidence.addRelated(row.callsite)
            finding.evidence.addRegistration(row.id, center: row.center)
            finding.evidence.count += 1
            finding.evidence.liveCount = k
            finding.evidence.detail =
                "suspected (context identity): the handler's context is the owner; "
                + "k = \(k) self-capturing registration(s)"
        }
    }

    mutating func selfRetainingRemoved(_ slot: Int) {
        guard rows[slot].flags.contains(.selfRetaining), let owner = rows[slot].observer?.id else { return }
        rows[slot].flags.remove(.selfRetaining)
        let k = (ruleState.selfRetaining[owner] ?? 1) - 1
        ruleState.selfRetaining[owner] = k > 0 ? k : nil
        let key = LeakFindingKey(rule: .selfRetainingHandler, subject: .observer(owner))
        findingStore.update(key) { $0.evidence.liveCount = k }
        if k == 0 { findingStore.resolve(key, at: now) }
    }

    /// Folds another rule's finding about `owner` into its open R4; returns false when there is none.
    @discardableResult
    mutating func selfRetainingFold(_ rule: LeakRule, owner: UInt64, detail: String, fanOut: Int? = nil) -> Bool {
        let key = LeakFindingKey(rule: .selfRetainingHandler, subject: .observer(owner))
        guard findingStore.isOpen(key) else { return false }
        let time = now
        findingStore.update(key) { finding in
            if !finding.evidence.foldedRules.contains(rule) { finding.evidence.detail += "; \(rule.code): \(detail)" }
            finding.evidence.fold(rule)
            if let fanOut { finding.evidence.fanOut = max(finding.evidence.fanOut, fanOut) }
            finding.lastSeen = time
        }
        return true
    }
}
