/// R6 REGISTRATION_GROWTH: registrations keep accumulating.
///
/// Growth: the live count of a (name, callsite) pair strictly increased across each of the last
/// G checkpoints (the count is recorded at a checkpoint only when it changed since the previous
/// record) and is at least F now. Key: name and callsite. Warning; error above
/// ``LeakRuleConfiguration/growthErrorCount``. Resolved when the count falls below F.
///
/// Budget: a name has more live registrations than its
/// ``LeakRuleConfiguration/registrationBudgets`` entry. Key: the name. Warning; error above ten
/// times the budget. Resolved when back within budget.
///
/// Typed messages count by type name and callsite like notification names; a budget may name a
/// message type.
extension InspectorState {
    mutating func growthRegistered(_ slot: Int, _ row: ObserverRow) {
        rows[slot].flags.insert(.tallied)
        let site = SiteKey(nameSlot: row.nameSlot, callsite: row.callsite.id)
        ruleState.tallies[site, default: SiteTally()].live += 1
        ruleState.changedTallies.insert(site)
        guard let name = row.name, let budget = configuration.rules.registrationBudgets[name],
            allows(.registrationGrowth, callsite: row.callsite, name: name)
        else { return }
        let live = nameRows[row.nameSlot].liveObservers
        guard live > budget else { return }
        findingStore.raise(
            LeakFindingKey(rule: .registrationGrowth, subject: .name(name)),
            severity: live > budget * 10 ? .error : .warning,
            summary: "\"\(name)\" has \(live) live registrations, over its budget of \(budget)", at: now
        ) { finding in
            finding.evidence.name = name
            finding.evidence.callsite = row.callsite
            finding.evidence.addRegistration(row.id, center: row.center)
            finding.evidence.addRelated(row.callsite)
            finding.evidence.count = UInt64(live)
            finding.evidence.liveCount = live
            finding.evidence.detail = "budget \(budget) (LifetimeTracker-style maxCount)"
        }
    }

    mutating func growthRemoved(_ slot: Int, _ row: ObserverRow) {
        guard row.flags.contains(.tallied) else { return }
        rows[slot].flags.remove(.tallied)
        let key = SiteKey(nameSlot: row.nameSlot, callsite: row.callsite.id)
        ruleState.changedTallies.insert(key)
        let live: Int
        if let index = ruleState.tallies.index(forKey: key) {
            live = ruleState.tallies.values[index].countDown()
            if live <= 0 { ruleState.tallies.remove(at: index) }
        } else {
            live = 0
        }
        let growthKey = LeakFindingKey(
            rule: .registrationGrowth, subject: .nameAtCallsite(row.displayName, callsite: row.callsite.id))
        if live < configuration.rules.growthMinimum, findingStore.isOpen(growthKey) {
            findingStore.update(growthKey) { $0.evidence.count = UInt64(max(0, live)) }
            findingStore.resolve(growthKey, at: now)
        }
        if let name = row.name, let budget = configuration.rules.registrationBudgets[name] {
            let nameLive = nameRows[row.nameSlot].liveObservers
            let budgetKey = LeakFindingKey(rule: .registrationGrowth, subject: .name(name))
            findingStore.update(budgetKey) { $0.evidence.liveCount = nameLive }
            if nameLive <= budget { findingStore.resolve(budgetKey, at: now) }
        }
    }

    /// Judges the pairs whose count changed since the last checkpoint, and those found growing
    /// then (which are raised again); any other pair would be judged as it was last time.
    ///
    /// - Complexity: O(pairs changed + pairs growing), not O(live pairs).
    mutating func growthCheckpoint() {
        let rules = configuration.rules
        let judged = ruleState.changedTallies.union(ruleState.growingTallies)
        ruleState.changedTallies.removeAll(keepingCapacity: true)
        guard rules.runs(.registrationGrowth) else { return }
        let span = max(1, rules.growthCheckpoints) + 1
        for site in judged {
            guard let index = ruleState.tallies.index(forKey: site) else {
                ruleState.growingTallies.remove(site)
                continue
            }
            let live = ruleState.tallies.values[index].live
            if ruleState.tallies.values[index].series.last != live {
                ruleState.tallies.values[index].series.append(live)
                if ruleState.tallies.values[index].series.count > span {
                    ruleState.tallies.values[index].series.removeFirst()
                }
            }
            let series = ruleState.tallies.values[index].series
            guard live >= rules.growthMinimum, series.count == span,
                zip(series, series.dropFirst()).allSatisfy({ $0 < $1 })
            else {
                ruleState.growingTallies.remove(site)
                continue
            }
            ruleState.growingTallies.insert(site)
            let key = ruleState.tallies.keys[index]
            raiseGrowth(key, live: live, series: series)
        }
    }

    /// Fills each live pair's series with the counts it had at the checkpoints before the stream,
    /// from its recent changes (`site-count`), as a viewer from the start recorded them; the
    /// checkpoint running now then judges. A checkpoint older than the oldest change known adds
    /// nothing: the series only starts later, so growth can be missed but never made up.
    mutating func growthCatchUp() {
        let span = max(1, configuration.rules.growthCheckpoints) + 1
        for (key, changes) in ruleState.pastSiteCounts {
            guard let index = ruleState.tallies.index(forKey: key), ruleState.tallies.values[index].series.isEmpty
            else { continue }
            let ordered = changes.sorted { $0.at < $1.at }
            var series: [Int] = []
            for (position, change) in ordered.enumerated() {
                guard change.live > 0 else {
                    // The pair had no registration left: a viewer's tally started again after it.
                    series = []
                    continue
                }
                let next = position + 1 < ordered.count ? ordered[position + 1].at : .max
                guard pastCheckpoints(from: change.at, to: next) > 0, series.last != change.live else { continue }
                series.append(change.live)
                if series.count > span { series.removeFirst() }
            }
            ruleState.tallies.values[index].series = series
            ruleState.changedTallies.insert(key)
        }
    }

    private mutating func raiseGrowth(_ key: SiteKey, live: Int, series: [Int]) {
        let site = definitions.callsite(key.callsite)
        let name = key.nameSlot == 0 ? "*" : nameRows[key.nameSlot].name
        guard allows(.registrationGrowth, callsite: site, name: name) else { return }
        let findingKey = LeakFindingKey(
            rule: .registrationGrowth, subject: .nameAtCallsite(name, callsite: key.callsite))
        // The registrations are listed once, when the finding opens: a scan of the table.
        let kept: [(id: UInt64, center: UInt32)] =
            findingStore.isOpen(findingKey)
            ? []
            : Array(
                rows.lazy
                    .filter {
                        $0.occupied && $0.isLive && $0.nameSlot == key.nameSlot && $0.callsite.id == key.callsite
                    }
                    .map { (id: $0.id, center: $0.center) }.suffix(16))
        let summary =
            "registrations for \"\(name)\" at \(site) keep growing: "
            + series.map(String.init).joined(separator: " → ")
        findingStore.raise(
            findingKey, severity: live > configuration.rules.growthErrorCount ? .error : .warning, summary: summary,
            at: now
        ) { finding in
            finding.summary = summary
            finding.evidence.name = name
            finding.evidence.callsite = site
            finding.evidence.series = series
            finding.evidence.count = UInt64(live)
            finding.evidence.liveCount = live
            for row in kept { finding.evidence.addRegistration(row.id, center: row.center) }
            finding.evidence.detail = "live count rose at each of the last \(series.count - 1) checkpoints"
        }
    }
}

extension SiteTally {
    /// One registration fewer, in place; the live count left.
    fileprivate mutating func countDown() -> Int {
        live -= 1
        return live
    }
}
