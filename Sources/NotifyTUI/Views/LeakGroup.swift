package import NotifyModel

/// One row of the Leaks view: the findings that share a signature (several R4 findings for
/// different instances of one type at one site are one root cause), shown as the most pressing one.
package struct LeakGroup: Sendable {
    /// What the findings are about, stable across runs.
    package var signature: LeakSignature
    /// The finding the row shows and Enter opens: open before fixed, then the most severe, then
    /// the latest.
    package var finding: LeakFinding
    /// How many findings share the signature.
    package var count: Int
    /// Their occurrences, summed.
    package var occurrences: UInt64

    /// `findings` grouped by signature, in the order each signature first appears.
    package static func groups(_ findings: [LeakFinding]) -> [LeakGroup] {
        var groups: [LeakGroup] = []
        var index: [LeakSignature: Int] = [:]
        for finding in findings {
            let signature = finding.signature
            guard let at = index[signature] else {
                index[signature] = groups.count
                groups.append(
                    LeakGroup(signature: signature, finding: finding, count: 1, occurrences: finding.occurrences))
                continue
            }
            groups[at].count += 1
            groups[at].occurrences += finding.occurrences
            if outranks(finding, groups[at].finding) { groups[at].finding = finding }
        }
        return groups
    }

    /// Whether `finding` is the better representative: open, then severity, then the latest seen.
    static func outranks(_ finding: LeakFinding, _ other: LeakFinding) -> Bool {
        if finding.isOpen != other.isOpen { return finding.isOpen }
        if finding.severity != other.severity { return finding.severity > other.severity }
        return (finding.lastSeen, finding.ordinal) > (other.lastSeen, other.ordinal)
    }
}
