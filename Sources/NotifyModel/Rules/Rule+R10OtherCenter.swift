/// R10 NEVER_POSTED, on another center: in a stream of several centers, observers wait on one
/// center for a name that is posted, but only to others. Explain calls each missed post
/// `other-center`; this raises it without being asked.
///
/// At each checkpoint, live registrations whose name was posted but never to their own center
/// count one more wait per (name, registering callsite); once one has waited
/// ``LeakRuleConfiguration/neverPostedCheckpoints`` checkpoints, or
/// ``LeakRuleConfiguration/neverPostedAfter`` of stream time since both it was registered and its
/// wait began, it is reported as a warning (the name is right, the center is not). Key: the name
/// at the registering callsite. Resolved when the name is first posted to the waiting center, or
/// when the last registration the previous checkpoint found waiting ends. Silent when posts of
/// the name came without a center it can trust (a late viewer's history, a center the header does
/// not list).
extension InspectorState {
    mutating func otherCenterCheckpoint() {
        guard carriesSeveralCenters, configuration.rules.runs(.neverPosted) else { return }
        var waiting: [LeakFindingKey: [Int]] = [:]
        for slot in rows.indices {
            let row = rows[slot]
            guard row.occupied, row.isLive, let name = row.name, row.nameSlot != 0 else { continue }
            let nameRow = nameRows[row.nameSlot]
            guard nameRow.posts > 0, !nameRow.postedCenters.mayContain(row.center) else { continue }
            waiting[Self.otherCenterKey(name, row.callsite.id), default: []].append(slot)
        }
        for key in ruleState.otherCenterWaits.keys where waiting[key] == nil { endOtherCenterWait(key) }
        let rules = configuration.rules
        for (key, slots) in waiting.sorted(by: { $0.key.description < $1.key.description }) {
            var wait = ruleState.otherCenterWaits[key] ?? OtherCenterWait(since: now)
            wait.checkpoints += 1
            wait.registrations = Set(slots.map { rows[$0].id })
            ruleState.otherCenterWaits[key] = wait
            let oldest = slots.min { rows[$0].registeredAt < rows[$1].registeredAt }!
            let waited = now - min(now, max(wait.since, rows[oldest].registeredAt))
            guard wait.checkpoints >= rules.neverPostedCheckpoints || waited >= rules.neverPostedAfter else {
                continue
            }
            raiseOtherCenter(key, slots: slots, oldest: oldest, waited: waited, checkpoints: wait.checkpoints)
        }
    }

    private static func otherCenterKey(_ name: String, _ callsite: UInt64) -> LeakFindingKey {
        LeakFindingKey(rule: .neverPosted, subject: .nameAtCallsite(name, callsite: callsite))
    }

    private mutating func endOtherCenterWait(_ key: LeakFindingKey) {
        ruleState.otherCenterWaits[key] = nil
        findingStore.resolve(key, at: now)
    }

    private mutating func raiseOtherCenter(
        _ key: LeakFindingKey, slots: [Int], oldest: Int, waited: UInt64, checkpoints: Int
    ) {
        let row = rows[oldest]
        let name = row.name ?? ""
        let sessionPosts = totals.posts
        guard findingStore.isOpen(key) || allows(.neverPosted, callsite: row.callsite, name: name) else { return }
        let postedTo = nameRows[row.nameSlot].postedCenters.members.map { "\"\(centerLabel($0))\"" }
        let postedText = postedTo.prefix(3).joined(separator: ", ") + (postedTo.count > 3 ? ", …" : "")
        let ids = slots.map { rows[$0].id }.sorted().suffix(16)
        let summary =
            "\"\(name)\" is observed on center \"\(centerLabel(row.center))\" at \(row.callsite) "
            + "but posted only to \(postedText)"
        let isOpen = findingStore.isOpen(key)
        findingStore.raise(key, severity: .warning, summary: summary, at: now, countsOccurrence: !isOpen) { finding in
            finding.evidence.name = name
            finding.evidence.callsite = row.callsite
            finding.evidence.observer = row.observer
            finding.evidence.registrations = []
            for id in ids { finding.evidence.addRegistration(id, center: row.center) }
            finding.evidence.count = UInt64(checkpoints)
            finding.evidence.duration = waited
            finding.evidence.sessionPosts = sessionPosts
            finding.evidence.detail =
                "another center: register on the center the poster uses (posted to \(postedText))"
        }
    }

    /// The name's first post to `center`: its registrations waiting there wait no more.
    mutating func otherCenterFirstPost(_ slot: Int, _ center: UInt32) {
        guard !ruleState.otherCenterWaits.isEmpty else { return }
        let name = nameRows[slot].name
        for (key, wait) in ruleState.otherCenterWaits {
            guard case .nameAtCallsite(name, _, _) = key.subject else { continue }
            let stillWaiting = wait.registrations.filter { id in
                registrationSlots[id].map { rows[$0].center != center } ?? false
            }
            if stillWaiting.isEmpty {
                endOtherCenterWait(key)
            } else {
                ruleState.otherCenterWaits[key]?.registrations = stillWaiting
            }
        }
    }

    /// A registration ended: its site's wait ends with the last registration found waiting.
    mutating func otherCenterRegistrationEnded(_ ended: ObserverRow) {
        guard let name = ended.name else { return }
        let key = Self.otherCenterKey(name, ended.callsite.id)
        guard ruleState.otherCenterWaits[key]?.registrations.remove(ended.id) != nil else { return }
        if ruleState.otherCenterWaits[key]?.registrations.isEmpty == true { endOtherCenterWait(key) }
    }
}
