/// The findings, keyed by root cause, bounded, with suppression applied at the door.
///
/// Why one store: de-duplication, re-opening, resolution and the cap must behave the same for
/// every rule, so rules only say "this key happened, update it so" or "this key cleared".
struct LeakFindingStore: Sendable {
    private(set) var byKey: [LeakFindingKey: LeakFinding] = [:]
    private var nextOrdinal: UInt64 = 0
    let maximum: Int
    /// Findings dropped to stay under ``maximum``.
    private(set) var dropped: UInt64 = 0
    /// Findings held per rule (by ``LeakRule/number``): a rule with none answers without hashing
    /// its key, which rules ask about on every registration and removal.
    private var heldPerRule = [Int](repeating: 0, count: 12)

    init(maximum: Int) {
        self.maximum = max(1, maximum)
    }

    subscript(key: LeakFindingKey) -> LeakFinding? { holds(key.rule) ? byKey[key] : nil }

    func isOpen(_ key: LeakFindingKey) -> Bool { holds(key.rule) && byKey[key]?.isOpen ?? false }

    @inline(__always)
    private func holds(_ rule: LeakRule) -> Bool { heldPerRule[rule.number] != 0 }

    @inline(__always)
    private func index(of key: LeakFindingKey) -> Dictionary<LeakFindingKey, LeakFinding>.Index? {
        holds(key.rule) ? byKey.index(forKey: key) : nil
    }

    /// Raises or updates the finding for `key` at stream time `now`: creates it with `summary`
    /// and `severity` if absent, re-opens it if resolved, counts an occurrence, then lets
    /// `update` grow the evidence (and raise the severity). Returns whether it was newly opened.
    @discardableResult
    mutating func raise(
        _ key: LeakFindingKey, severity: LeakSeverity, summary: @autoclosure () -> String, at now: UInt64,
        countsOccurrence: Bool = true, update: (inout LeakFinding) -> Void = { _ in }
    ) -> Bool {
        var opened = false
        var found = index(of: key)
        if found == nil {
            if byKey.count >= maximum { evict() }
            nextOrdinal += 1
            byKey[key] = LeakFinding(
                key: key, severity: severity, summary: summary(), evidence: LeakEvidence(), firstSeen: now,
                lastSeen: now, occurrences: 0, resolvedAt: nil, ordinal: nextOrdinal)
            heldPerRule[key.rule.number] += 1
            opened = true
            found = byKey.index(forKey: key)
        }
        let index = found!
        byKey.values[index].modify { finding in
            if finding.resolvedAt != nil {
                finding.resolvedAt = nil
                finding.firstSeen = now
                opened = true
            }
            if countsOccurrence { finding.occurrences += 1 }
            finding.lastSeen = now
            if severity > finding.severity { finding.severity = severity }
            update(&finding)
        }
        return opened
    }

    /// Updates an existing finding without counting an occurrence; nothing if absent.
    mutating func update(_ key: LeakFindingKey, _ body: (inout LeakFinding) -> Void) {
        guard let index = index(of: key) else { return }
        byKey.values[index].modify(body)
    }

    /// Updates an existing finding without counting an occurrence, then resolves it at `now` if
    /// `body` returned true and it is open: one lookup for both.
    mutating func update(_ key: LeakFindingKey, resolvingAt now: UInt64, _ body: (inout LeakFinding) -> Bool) {
        guard let index = index(of: key) else { return }
        byKey.values[index].modify { finding in
            if body(&finding), finding.isOpen { finding.resolvedAt = now }
        }
    }

    /// Marks the finding resolved at `now` if it is open; returns whether it was.
    @discardableResult
    mutating func resolve(_ key: LeakFindingKey, at now: UInt64) -> Bool {
        guard let index = index(of: key) else { return false }
        // In place: reading a finding out of `values` would copy it.
        var resolved = false
        byKey.values[index].modify { finding in
            guard finding.isOpen else { return }
            finding.resolvedAt = now
            resolved = true
        }
        return resolved
    }

    /// Drops an eighth of the findings: resolved ones first, then info, then the oldest, so a
    /// flood of new keys costs O(1) amortized per finding.
    private mutating func evict() {
        let victims = byKey.values.sorted { a, b in
            if a.isOpen != b.isOpen { return !a.isOpen }
            if a.severity != b.severity { return a.severity < b.severity }
            return a.ordinal < b.ordinal
        }.prefix(max(1, maximum / 8))
        for victim in victims {
            byKey[victim.key] = nil
            heldPerRule[victim.key.rule.number] -= 1
        }
        dropped += UInt64(victims.count)
    }

    /// Every finding, oldest first.
    var all: [LeakFinding] { byKey.values.sorted { $0.ordinal < $1.ordinal } }
}

extension LeakFinding {
    /// Lets the store mutate a finding in place through `Dictionary.Values`.
    fileprivate mutating func modify(_ body: (inout LeakFinding) -> Void) { body(&self) }
}
