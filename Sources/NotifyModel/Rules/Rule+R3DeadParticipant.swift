import NotifyWire

/// R3 DEAD_PARTICIPANT: a registration was still live when its observer or its object filter
/// deallocated; the center found it dead at the next post that would have reached it and purged
/// it (removal reasons `observer-deallocated` and `object-deallocated`).
///
/// Key: the registering callsite and which participant died. Severity: dead sender error (an
/// object filter keyed by a reused address can misdeliver, E7); dead observer warning, for target
/// registrations (owner-bound ones end with their owner by contract, reported only with
/// ``LeakRuleConfiguration/reportsOwnerBoundPurges``). Never error for a handler run after death:
/// NotifyKit checks the weak reference before every call, so deliveries after death are 0.
/// Stays open: the purge proves the code path lacks a removal; nothing later shows it was fixed.
///
/// Typed messages: the object filter is the message's subject (`for:`); a subject that
/// deallocated while its message observers stayed registered is reported the same way.
extension InspectorState {
    mutating func deadParticipantRemoved(_ slot: Int, _ row: ObserverRow, reason: TraceRemovalReason) {
        let sender: Bool
        switch reason {
        case .objectDeallocated: sender = true
        case .observerDeallocated:
            guard row.kind == .target || configuration.rules.reportsOwnerBoundPurges else { return }
            sender = false
        default: return
        }
        guard
            allows(
                .deadParticipant, callsite: row.callsite, name: row.displayName,
                ownerType: row.observer?.typeName)
        else { return }
        let participant = sender ? row.objectFilter : row.observer
        let what = sender ? (row.isMessage ? "subject" : "object filter") : "observer"
        findingStore.raise(
            LeakFindingKey(rule: .deadParticipant, subject: .participant(callsite: row.callsite.id, sender: sender)),
            severity: sender ? .error : .warning,
            summary: "\(what) \(participant?.typeName ?? "?") of the registration for \"\(row.displayName)\" at "
                + "\(row.callsite) deallocated while registered",
            at: now
        ) { finding in
            finding.evidence.name = row.displayName
            finding.evidence.callsite = row.callsite
            finding.evidence.observer = row.observer
            finding.evidence.objectFilter = row.objectFilter
            finding.evidence.addRegistration(row.id, center: row.center)
            finding.evidence.count += 1
            finding.evidence.deliveriesAfter = row.deliveries
            finding.evidence.duration = row.age(at: now)
            finding.evidence.detail =
                (sender ? "dead sender" : "dead observer")
                + "; purged by the center at the next matching post; 0 deliveries after death"
        }
    }
}
