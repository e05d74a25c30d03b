/// The near-name lookups of R9 (the names posted unheard, the names registered) and R10 (the
/// names posted), each name filed in a ``NearNameIndex`` as it joins, so a name is compared with
/// the few that may be near it, not with every name.
extension InspectorState {
    /// Files the name of `slot` as posted unheard; called at its first unheard post.
    mutating func fileUnheardName(_ slot: Int) {
        guard slot != 0, configuration.rules.runs(.unheardPost) else { return }
        refreshNearNameIndexes()
        ruleState.unheardNames.file(nameRows[slot].name, slot: slot)
    }

    /// Files the name of `slot` as registered; called at its first registration.
    mutating func fileRegisteredName(_ slot: Int) {
        guard slot != 0, configuration.rules.runs(.unheardPost) else { return }
        refreshNearNameIndexes()
        ruleState.registeredNameIndex.file(nameRows[slot].name, slot: slot)
    }

    /// Files the name of `slot` as posted; called at its first post.
    mutating func filePostedName(_ slot: Int) {
        guard slot != 0, configuration.rules.runs(.neverPosted) else { return }
        refreshNearNameIndexes()
        ruleState.postedNameIndex.file(nameRows[slot].name, slot: slot)
    }

    /// The slots (ascending) of the names in `index` that may be near `name`; every named slot when
    /// the index cannot be used. A lookup cut short counts in ``DetailLoss/nearNameLookupsCut``.
    mutating func nearNameCandidates(to name: String, among index: KeyPath<RuleState, NearNameIndex>) -> [Int] {
        refreshNearNameIndexes()
        guard let found = ruleState[keyPath: index].candidates(near: name) else {
            return Array(nameRows.indices.dropFirst())
        }
        if !found.complete { loss.nearNameLookupsCut &+= 1 }
        return found.slots.filter { $0 > 0 && $0 < nameRows.count }
    }

    /// Files every name again when the distance changed, or when names forgotten since their filing
    /// outnumber the names: amortized O(1) per name filed.
    private mutating func refreshNearNameIndexes() {
        let distance = configuration.rules.nearNameDistance
        let limit = 2 * nameSlots.count + 1_024
        func stale(_ index: NearNameIndex) -> Bool { index.maximumDistance != distance || index.filed > limit }
        guard stale(ruleState.unheardNames) || stale(ruleState.registeredNameIndex) || stale(ruleState.postedNameIndex)
        else { return }
        let names = nameSlots.count
        ruleState.unheardNames = NearNameIndex(maximumDistance: distance)
        ruleState.registeredNameIndex = NearNameIndex(maximumDistance: distance, expectedNames: names)
        ruleState.postedNameIndex = NearNameIndex(maximumDistance: distance, expectedNames: names)
        for slot in nameRows.indices.dropFirst() where nameRows[slot].occupied {
            let row = nameRows[slot]
            if row.posts > 0 { ruleState.postedNameIndex.file(row.name, slot: slot) }
            if row.everRegistered {
                ruleState.registeredNameIndex.file(row.name, slot: slot)
            } else if row.postsWithNoObserver > 0 {
                ruleState.unheardNames.file(row.name, slot: slot)
            }
        }
    }
}
