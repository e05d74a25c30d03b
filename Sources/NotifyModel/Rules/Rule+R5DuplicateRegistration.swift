import NotifyWire

/// R5 DUPLICATE_REGISTRATION: the same observer registered again for the same thing while the
/// first registration is live, so one post runs its handler more than once.
///
/// "The same": same owner object, name and object filter, whatever the callsites (a screen that
/// subscribes in `init` and again in `viewDidLoad`). For registrations with no owner (blocks,
/// sequences) the fallback is the same name, filter and callsite with both tokens held, which
/// per-instance cells legitimately share. Key: the name at the group's first callsite on its
/// center, so every instance of a screen adds to one finding; the evidence lists every callsite
/// of the group, and the summary the most registrations one group held at once.
/// Registrations on different centers of one stream are never the same: a post reaches one center.
/// Severity: warning (owner-keyed), info (fallback); when one post runs handlers of the group more
/// than once, owner-keyed escalates to error and the fallback to warning. A duplicate of a
/// self-capturing owner is folded into its R4. Resolved when no group of the key has two live
/// members. Typed message observers and message sequences have no owner in the trace: they take
/// the fallback key, the message type standing for the name and the subject for the filter.
extension InspectorState {
    /// The group `row` belongs to, ignoring whether its token is still held.
    /// Static, like ``duplicateKey(_:)``: a method on the state called with one of its own rows
    /// makes the compiler copy the whole state first.
    private static func groupKey(_ row: ObserverRow) -> DuplicateKey {
        DuplicateKey(
            center: row.center, owner: row.observer?.id, nameSlot: row.nameSlot, object: row.objectFilter?.id,
            callsite: row.observer == nil ? row.callsite.id : 0)
    }

    static func duplicateKey(_ row: ObserverRow) -> DuplicateKey? {
        if row.observer != nil { return Self.groupKey(row) }
        // The fallback is one place: a site the trace did not see groups unrelated subscribers.
        guard row.kind == .block || row.kind == .sequence || row.kind.isMessage, row.token == .held,
            !row.callsite.isUnknown
        else { return nil }
        return Self.groupKey(row)
    }

    mutating func duplicateRegistered(_ slot: Int, _ row: ObserverRow) {
        guard configuration.rules.runs(.duplicateRegistration), let key = Self.duplicateKey(row) else { return }
        rows[slot].flags.insert(.grouped)
        // One lookup: a lone member (the usual case) needs nothing more, and a large group has
        // only what this registration changes touched, so its cost does not grow with the group.
        let joined = ruleState.duplicates[
            key,
            default: DuplicateGroup(
                findingKey: LeakFindingKey(
                    rule: .duplicateRegistration,
                    subject: .nameAtCallsite(row.displayName, callsite: row.callsite.id, center: row.center)))
        ].join(row.id, at: row.callsite)
        guard let group = joined else { return }
        let crossed = group.members.count == 2
        if crossed {
            for member in group.members {
                if let memberSlot = registrationSlots[member] { rows.markDuplicated(memberSlot) }
            }
        } else {
            rows.markDuplicated(slot)
        }
        let sites = group.sites
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
        let added = crossed ? Array(group.members).sorted() : [row.id]
        let onCenter = carriesSeveralCenters ? " on center \"\(centerLabel(row.center))\"" : ""
        func summary(_ times: UInt64) -> String {
            (ownerKeyed ? "\(row.observer!.typeName) registered" : "registrations with no owner made")
                + " \(times) times for \"\(row.displayName)\"\(onCenter) at "
                + sites.map(\.description).joined(separator: ", ") + " while the first is live"
        }
        findingStore.raise(
            group.findingKey, severity: ownerKeyed ? .warning : .info, summary: summary(UInt64(count)), at: now
        ) { finding in
            finding.evidence.name = row.displayName
            finding.evidence.callsite = finding.evidence.callsite ?? sites.first
            finding.evidence.observer = row.observer
            finding.evidence.objectFilter = row.objectFilter
            for member in added { finding.evidence.addRegistration(member, center: row.center) }
            for site in sites { finding.evidence.addRelated(site) }
            if UInt64(count) > finding.evidence.count {
                finding.evidence.count = UInt64(count)
                finding.summary = summary(finding.evidence.count)
            }
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
        let key = Self.groupKey(rows[slot])
        guard let index = ruleState.duplicates.index(forKey: key) else { return }
        let left = ruleState.duplicates.values[index].leave(id)
        if left.remaining == 0 {
            ruleState.duplicates.remove(at: index)
            return
        }
        if let alone = left.alone, let lastSlot = registrationSlots[alone] { rows[lastSlot].flags.remove(.duplicated) }
        if let findingKey = left.reportsTo {
            let time = now
            findingStore.update(findingKey, resolvingAt: time) { finding in
                finding.evidence.liveCount -= 1
                return finding.evidence.liveCount <= 0
            }
        }
    }

    mutating func duplicateDelivered(_ slot: Int, postID: UInt64) {
        guard let key = Self.duplicateKey(rows[slot]), let index = ruleState.duplicates.index(forKey: key) else {
            return
        }
        let runs = ruleState.duplicates.values[index].countRun(in: postID)
        guard runs >= 2 else { return }
        let group = ruleState.duplicates.values[index]
        if group.foldedIntoSelfRetaining, let owner = rows[slot].observer {
            selfRetainingFold(.duplicateRegistration, owner: owner.id, detail: "", fanOut: runs)
            return
        }
        let severity: LeakSeverity = key.owner != nil ? .error : .warning
        let time = now
        let findingKey = group.findingKey
        findingStore.update(findingKey) { finding in
            if severity > finding.severity { finding.severity = severity }
            finding.evidence.fanOut = max(finding.evidence.fanOut, runs)
            finding.lastSeen = time
        }
    }
}

extension DuplicateGroup {
    /// Adds a member registered at `site`; the group as it now stands once it has two or more,
    /// nil while alone.
    fileprivate mutating func join(_ id: UInt64, at site: CallsiteInfo) -> DuplicateGroup? {
        members.insert(id)
        if sites.count < Self.siteLimit, siteIDs.insert(site.id).inserted { sites.append(site) }
        return members.count >= 2 ? self : nil
    }

    /// Removes a member in place (reading a group out of the table copies it). With one member
    /// left: that member, and the finding to count down unless it was folded into an R4.
    fileprivate mutating func leave(_ id: UInt64) -> (remaining: Int, alone: UInt64?, reportsTo: LeakFindingKey?) {
        members.remove(id)
        guard members.count == 1, let last = members.first else { return (members.count, nil, nil) }
        let folded = foldedIntoSelfRetaining
        foldedIntoSelfRetaining = false
        return (1, last, folded ? nil : findingKey)
    }

    /// Counts one run of the group's handlers for `postID`; the runs in that post so far.
    fileprivate mutating func countRun(in postID: UInt64) -> Int {
        if currentPost == postID {
            runsInPost += 1
        } else {
            currentPost = postID
            runsInPost = 1
        }
        return runsInPost
    }
}

extension [ObserverRow] {
    /// Flags the row at `slot` a duplicate and gives its callsite, in place: reading a field of a
    /// row through the state's array copies the whole row.
    fileprivate mutating func markDuplicated(_ slot: Int) {
        self[slot].flags.insert(.duplicated)
    }
}
