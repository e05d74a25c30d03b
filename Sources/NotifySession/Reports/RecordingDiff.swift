import NotifyWire
package import NotifyModel

/// `notifytop diff A B`: what changed from one recording to the next, per notification name, and
/// which leak warnings appeared or went away: a regression check for CI.
///
/// Warnings are matched by rule and by what they are about spelled the way it survives a rerun
/// (names, `file:line` callsites, observer types), never by trace ids or addresses, which differ
/// between any two runs.
package struct RecordingDiff: Sendable, Encodable {
    /// One side's identity.
    package struct Side: Sendable, Encodable {
        /// The file.
        package var path: String
        /// The recorded process.
        package var process: String
        /// Its pid.
        package var pid: Int
        /// Stream nanoseconds the recording's figures cover, history included: what rates divide by.
        package var durationNs: UInt64
        /// Stream nanoseconds recorded as they happened (after `r`, for a recording that opens
        /// with the session's history); equal to ``durationNs`` for one recorded from the start.
        package var recordedNs: UInt64
        /// "3 lines skipped (first at line 101)" when malformed lines were skipped; absent otherwise.
        package var skippedLines: String?
    }

    /// One name's figures in A and B.
    package struct NameChange: Sendable, Encodable {
        /// The notification name (`*` for wildcard observers).
        package var name: String
        /// Live observers at the end of A.
        package var observersA: Int
        /// Live observers at the end of B.
        package var observersB: Int
        /// Deliveries in A.
        package var deliveriesA: UInt64
        /// Deliveries in B.
        package var deliveriesB: UInt64

        /// B minus A.
        package var observersDelta: Int { observersB - observersA }
        /// B minus A, within Int64's range (the text report writes it exactly).
        package var deliveriesDelta: Int64 { Int64(clamping: deliveriesB) - Int64(clamping: deliveriesA) }

        enum CodingKeys: String, CodingKey {
            case name, observersA, observersB, observersDelta, deliveriesA, deliveriesB, deliveriesDelta
        }

        /// Encodes the figures with their deltas, so a script need not subtract.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(observersA, forKey: .observersA)
            try container.encode(observersB, forKey: .observersB)
            try container.encode(observersDelta, forKey: .observersDelta)
            try container.encode(deliveriesA, forKey: .deliveriesA)
            try container.encode(deliveriesB, forKey: .deliveriesB)
            try container.encode(deliveriesDelta, forKey: .deliveriesDelta)
        }
    }

    /// A warning open on one side only.
    package struct Warning: Sendable, Encodable, Hashable {
        /// Rule and subject, stable across runs: `R1 Demo/Cart.swift:42`.
        package var identity: String
        /// `R1`.
        package var rule: String
        /// `info`, `warning` or `error`.
        package var severity: String
        /// The finding's one-line summary.
        package var summary: String
        /// The severity, for `--fail-on`.
        var level: LeakSeverity

        enum CodingKeys: String, CodingKey { case identity, rule, severity, summary }
    }

    /// Recording A.
    package var a: Side
    /// Recording B.
    package var b: Side
    /// Every name seen in either, by name.
    package var names: [NameChange]
    /// Warnings open at the end of B but not of A.
    package var newWarnings: [Warning]
    /// Warnings open at the end of A but not of B.
    package var resolvedWarnings: [Warning]

    /// Compares two folded recordings.
    package init(_ a: RecordingFold, _ b: RecordingFold) {
        self.a = Self.side(a)
        self.b = Self.side(b)
        var rows: [String: NameChange] = [:]
        for row in a.model.names where !Self.isIdleWildcard(row) {
            rows[row.name] = NameChange(
                name: row.name, observersA: row.liveObservers, observersB: 0,
                deliveriesA: row.deliveries, deliveriesB: 0)
        }
        for row in b.model.names where !Self.isIdleWildcard(row) {
            rows[
                row.name,
                default: NameChange(
                    name: row.name, observersA: 0, observersB: 0, deliveriesA: 0,
                    deliveriesB: 0)
            ].observersB = row.liveObservers
            rows[row.name]!.deliveriesB = row.deliveries
        }
        names = rows.values.sorted { $0.name < $1.name }
        let before = Self.openWarnings(a.model)
        let after = Self.openWarnings(b.model)
        let beforeKeys = Set(before.map(\.identity))
        let afterKeys = Set(after.map(\.identity))
        newWarnings = after.filter { !beforeKeys.contains($0.identity) }
        resolvedWarnings = before.filter { !afterKeys.contains($0.identity) }
    }

    /// Whether B has new warnings of `severity` or worse.
    package func hasNewWarnings(atLeast severity: LeakSeverity) -> Bool {
        newWarnings.contains { $0.level >= severity }
    }

    private static func side(_ fold: RecordingFold) -> Side {
        Side(
            path: fold.path, process: fold.model.header?.process ?? "?", pid: Int(fold.model.header?.pid ?? 0),
            durationNs: fold.duration, recordedNs: fold.recorded, skippedLines: fold.skippedLines)
    }

    private static func isIdleWildcard(_ row: NameRow) -> Bool {
        row.isWildcard && row.liveObservers == 0 && row.deliveries == 0
    }

    /// Open findings, worst first, one per identity (the worst wins when two share one).
    private static func openWarnings(_ model: InspectorState) -> [Warning] {
        var byIdentity: [String: Warning] = [:]
        for finding in model.findings where finding.isOpen {
            let warning = Warning(
                identity: identity(finding, in: model), rule: finding.rule.code,
                severity: finding.severity.description, summary: finding.summary,
                level: finding.severity)
            if let existing = byIdentity[warning.identity], existing.level >= warning.level { continue }
            byIdentity[warning.identity] = warning
        }
        return byIdentity.values.sorted { ($1.level, $0.identity) < ($0.level, $1.identity) }
    }

    /// `R5 "cartDidChange"@Demo/Cart.swift:42`: the finding's key with trace ids replaced.
    static func identity(_ finding: LeakFinding, in model: InspectorState) -> String {
        let rule = finding.rule.code
        switch finding.key.subject {
        case .callsite(let id): return "\(rule) \(model.callsite(id))"
        case .participant(let id, let sender): return "\(rule) \(sender ? "sender" : "observer")@\(model.callsite(id))"
        case .nameAtCallsite(let name, let id, _): return "\(rule) \"\(name)\"@\(model.callsite(id))"
        case .name(let name): return "\(rule) \"\(name)\""
        case .observer: return "\(rule) \(finding.evidence.observer?.typeName ?? "?")"
        }
    }
}
