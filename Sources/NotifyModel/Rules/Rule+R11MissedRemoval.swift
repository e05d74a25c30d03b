import NotifyWire

/// R11 MISSED_REMOVAL: a `removeObserver` that ended nothing (a `remove-missed` line): the token
/// belongs to another center, or was removed already; with NotifyKit, also a block observer removed
/// by its owner instead of its token. Whatever registration was meant runs on. Warning, raised at
/// the first such call of a site. Key: the call site; each further miss there adds to its count.
/// It stays open: a later removal does not undo the call that missed.
extension InspectorState {
    mutating func missedRemovalFound(_ missed: MissedRemoval, thread: UInt64) {
        let key = LeakFindingKey(rule: .missedRemoval, subject: .callsite(missed.callsite.id))
        if findingStore.isOpen(key) {
            let time = now
            findingStore.update(key) { finding in
                finding.occurrences += 1
                finding.lastSeen = time
                finding.evidence.count += 1
                finding.evidence.addThread(thread)
            }
            return
        }
        guard allows(.missedRemoval, callsite: missed.callsite, name: missed.name) else { return }
        let name = missed.name.map { "\"\($0)\"" } ?? "no name"
        findingStore.raise(
            key, severity: .warning,
            summary:
                "removeObserver at \(missed.callsite) ended nothing (\(name)): the token is another center's or was removed already",
            at: now
        ) { finding in
            finding.evidence.name = missed.name
            finding.evidence.callsite = missed.callsite
            finding.evidence.observer = missed.observer
            finding.evidence.count += 1
            finding.evidence.addThread(thread)
            finding.evidence.detail = "removeObserver(\(missed.observer.typeName)) matched no live registration"
        }
    }
}
