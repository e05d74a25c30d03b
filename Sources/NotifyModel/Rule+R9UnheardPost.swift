import NotifyEvents

/// R9 UNHEARD_POST: a name was posted and no registration matched (wildcards included).
///
/// Key: the name; every unheard post of it adds to the count. Severity: info; warning when a name
/// that is or was registered is near it (``NameSimilarity``), likely a typo; upgraded when such
/// a name registers later. Names in ``LeakRuleConfiguration/unheardAllowlist`` are never
/// reported. Resolved when a registration for the name (or a wildcard) appears.
extension InspectorState {
    mutating func unheardPosted(_ post: TracePost, nameSlot: Int) {
        guard !configuration.rules.unheardAllowlist.contains(post.name) else { return }
        let key = LeakFindingKey(rule: .unheardPost, subject: .name(post.name))
        let site = definitions.callsite(post.callsite)
        if findingStore.isOpen(key) {
            let time = now
            findingStore.update(key) { finding in
                finding.occurrences += 1
                finding.lastSeen = time
                finding.evidence.count += 1
                finding.evidence.addRelated(site)
                finding.evidence.addThread(post.thread)
            }
            return
        }
        guard allows(.unheardPost, callsite: site, name: post.name) else { return }
        let registered = nameRows.lazy.filter { $0.occupied && $0.everRegistered && !$0.isWildcard }.map(\.name)
        let near = NameSimilarity.nearest(
            to: post.name, among: registered, maximumDistance: configuration.rules.nearNameDistance)
        findingStore.raise(
            key, severity: near == nil ? .info : .warning,
            summary: "\"\(post.name)\" was posted with no observers"
                + (near.map { "; did you mean \"\($0.name)\"?" } ?? ""),
            at: now
        ) { finding in
            finding.evidence.name = post.name
            finding.evidence.callsite = finding.evidence.callsite ?? site
            finding.evidence.count += 1
            finding.evidence.addRelated(site)
            finding.evidence.addThread(post.thread)
            if let near {
                finding.evidence.nearestName = near.name
                finding.evidence.nearestDistance = near.distance
            }
        }
    }

    mutating func unheardPostRegistered(_ slot: Int, _ row: ObserverRow, firstTimeForName: Bool) {
        guard let name = row.name else {
            let open = findingStore.byKey.values.filter { $0.rule == .unheardPost && $0.isOpen }.map(\.key)
            for key in open { findingStore.resolve(key, at: now) }
            return
        }
        findingStore.resolve(LeakFindingKey(rule: .unheardPost, subject: .name(name)), at: now)
        guard firstTimeForName else { return }
        let maximum = configuration.rules.nearNameDistance
        let candidates = findingStore.byKey.values.filter {
            $0.rule == .unheardPost && $0.isOpen && ($0.evidence.nearestDistance == nil || $0.severity == .info)
        }
        for finding in candidates {
            guard case .name(let posted) = finding.key.subject,
                  let distance = NameSimilarity.nearness(posted, name, maximumDistance: maximum) else { continue }
            findingStore.update(finding.key) { finding in
                finding.severity = max(finding.severity, .warning)
                finding.evidence.nearestName = name
                finding.evidence.nearestDistance = distance
                finding.summary = "\"\(posted)\" was posted with no observers; did you mean \"\(name)\"?"
            }
        }
    }
}
