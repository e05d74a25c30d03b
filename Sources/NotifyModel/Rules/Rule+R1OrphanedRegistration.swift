import NotifyWire

/// R1 ORPHANED_REGISTRATION: a block (or sequence) registration's token was released while the
/// registration was live, so only a bulk removal can end it now.
///
/// Key: the registering callsite (every registration orphaned there is one root cause).
/// Severity: warning; error once an orphaned registration delivers (its handler runs with no
/// off switch). Resolved when every orphaned registration of the callsite has ended.
/// Target–action registrations have no token; owner-bound ones end with their owner, so dropping
/// their token is harmless, unless the handler captures the owner, which R4 reports (R1 is
/// folded into it).
///
/// A token released after its object filter died orphans nothing: the registration can no longer
/// deliver, and the center ends it at the next post of its name (R3 judges that case).
///
/// Typed messages cannot be orphaned, by construction: dropping a message observer's
/// `ObservationToken` ends its registration, so its release arrives as a removal, not a drop.
extension InspectorState {
    mutating func orphanTokenDropped(_ slot: Int) {
        let row = rows[slot]
        if row.kind == .ownerBound || row.kind == .target {
            if row.flags.contains(.selfRetaining), let owner = row.observer {
                selfRetainingFold(.orphanedRegistration, owner: owner.id, detail: "token of #\(row.id) dropped")
            }
            return
        }
        guard !row.flags.contains(.objectFilterDead),
            allows(.orphanedRegistration, callsite: row.callsite, name: row.displayName)
        else { return }
        rows[slot].flags.insert(.orphaned)
        let key = LeakFindingKey(rule: .orphanedRegistration, subject: .callsite(row.callsite.id))
        findingStore.raise(
            key, severity: .warning,
            summary: "token of a \(row.kind.rawValue) registration for \"\(row.displayName)\" at \(row.callsite) "
                + "was released while registered",
            at: now
        ) { finding in
            finding.evidence.name = row.displayName
            finding.evidence.callsite = row.callsite
            finding.evidence.objectFilter = row.objectFilter
            finding.evidence.addRegistration(row.id, center: row.center)
            finding.evidence.count += 1
            finding.evidence.liveCount += 1
            finding.evidence.duration = row.age(at: now)
            finding.evidence.detail = "age at orphaning \(row.age(at: now)) ns; the handler keeps running"
        }
    }

    mutating func orphanDelivered(_ slot: Int) {
        guard rows[slot].isLive else { return }
        let key = LeakFindingKey(rule: .orphanedRegistration, subject: .callsite(rows[slot].callsite.id))
        let time = now
        findingStore.update(key) { finding in
            finding.severity = .error
            finding.evidence.deliveriesAfter += 1
            finding.lastSeen = time
        }
    }

    mutating func orphanRemoved(_ slot: Int) {
        guard rows[slot].flags.contains(.orphaned) else { return }
        rows[slot].flags.remove(.orphaned)
        let key = LeakFindingKey(rule: .orphanedRegistration, subject: .callsite(rows[slot].callsite.id))
        var cleared = false
        findingStore.update(key) { finding in
            finding.evidence.liveCount -= 1
            cleared = finding.evidence.liveCount <= 0
        }
        if cleared { findingStore.resolve(key, at: now) }
    }

    /// A `removeObserver` that ended nothing, for a name with orphaned block registrations, is
    /// usually the attempt to remove them by owner (E1a): add it to their evidence.
    mutating func orphanMissedRemoval(_ missed: MissedRemoval) {
        let keys = findingStore.byKey.values
            .filter { finding in
                finding.rule == .orphanedRegistration && finding.isOpen
                    && (missed.name == nil || finding.evidence.name == missed.name)
            }
            .map(\.key)
        for key in keys {
            findingStore.update(key) { finding in
                finding.evidence.addRelated(missed.callsite)
                finding.evidence.detail =
                    "removeObserver(\(missed.observer.typeName)) at \(missed.callsite) ended "
                    + "nothing: block registrations end only through their token"
            }
        }
    }
}
