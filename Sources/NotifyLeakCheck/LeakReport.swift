public import NotifyModel

/// What a leak check found: every finding of notifytop's rules, as the Leaks view lists them.
///
/// `description` prints each finding with its evidence and fix, for a test's failure message.
public struct LeakReport: Sendable, CustomStringConvertible {
    /// One finding of the leak rules.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// The model's finding: its evidence, occurrences and times.
        public let finding: LeakFinding
        /// `"R1"` … `"R10"`.
        public var rule: String { finding.rule.code }
        /// The notification name, when the finding is about one (`"*"` for wildcard observers).
        public var name: String? { finding.evidence.name }
        /// The registering (or posting) call, `Module/File.swift:42`.
        public var site: String? { finding.evidence.callsite?.description }
        /// How sure and how bad.
        public var severity: LeakSeverity { finding.severity }
        /// One line saying what happened.
        public var summary: String { finding.summary }
        /// The rule's one-line fix.
        public var fix: String { finding.fix }
        /// False once the condition cleared (the observer finally went away, the duplicate was removed).
        public var isOpen: Bool { finding.isOpen }
        /// Rule, name, site and owner type: the same in every run; what a baseline lists.
        public var signature: LeakSignature { finding.signature }

        /// `R1 ORPHANED_REGISTRATION error "cartDidChange" Shop/Cart.swift:42: <summary>`.
        public var description: String {
            var parts = [finding.rule.description, isOpen ? severity.description : "fixed"]
            if let name { parts.append("\"\(name)\"") }
            if let site { parts.append(site) }
            return parts.joined(separator: " ") + ": " + summary
        }
    }

    /// Every finding, open or resolved, in the order they were first raised.
    public let findings: [Finding]
    /// Events the probe could not keep (a thread recorded more than its buffer holds): when not
    /// zero, the findings may miss what those events showed.
    public let droppedEvents: UInt64
    /// The model after the block, for what the findings do not say (names, observers, threads).
    let model: InspectorState

    init(model: InspectorState, droppedEvents: UInt64) {
        self.model = model
        self.droppedEvents = droppedEvents
        findings = model.findings.sorted { $0.ordinal < $1.ordinal }.map(Finding.init)
    }

    /// The open findings of `severity` or worse, worst first: what `notifytop --fail-on` fails on.
    public func findings(atLeast severity: LeakSeverity) -> [Finding] {
        findings.filter { $0.isOpen && $0.severity >= severity }
            .sorted { ($1.severity, $0.finding.ordinal) < ($0.severity, $1.finding.ordinal) }
    }

    /// A summary line, then each finding with its evidence and fix, worst first.
    public var description: String {
        let open = findings.filter(\.isOpen)
        var counts: [String] = []
        for severity in LeakSeverity.allCases.reversed() {
            let count = open.count { $0.severity == severity }
            if count > 0 { counts.append("\(count) \(severity)") }
        }
        var lines = ["leak check: " + (counts.isEmpty ? "no open findings" : counts.joined(separator: ", "))]
        let resolved = findings.count - open.count
        if resolved > 0 { lines[0] += "; \(resolved) fixed" }
        if droppedEvents > 0 { lines[0] += "; \(droppedEvents) events dropped (findings may be incomplete)" }
        let ordered = findings.sorted {
            ($1.isOpen ? 1 : 0, $1.severity, $0.finding.ordinal) < ($0.isOpen ? 1 : 0, $0.severity, $1.finding.ordinal)
        }
        for finding in ordered {
            lines.append("")
            lines.append(finding.description)
            lines.append("  Evidence")
            let fields = finding.finding.evidence.fields(
                duration: Self.duration, thread: threadName, rule: finding.finding.rule)
            for (label, value) in fields {
                lines.append("    " + label + String(repeating: " ", count: max(1, 18 - label.count)) + value)
            }
            lines.append("  Fix")
            lines.append("    " + finding.fix)
        }
        return lines.joined(separator: "\n")
    }

    private func threadName(_ id: UInt64) -> String {
        model.thread(id)?.name ?? "thread-\(id)"
    }

    /// `850ns`, `42µs`, `1.5ms`, `2.0s`.
    static func duration(_ nanoseconds: UInt64) -> String {
        func one(_ value: Double) -> String {
            let tenths = Int((value * 10).rounded())
            return "\(tenths / 10).\(tenths % 10)"
        }
        switch nanoseconds {
        case ..<1_000: return "\(nanoseconds)ns"
        case ..<1_000_000: return "\(nanoseconds / 1_000)µs"
        case ..<1_000_000_000: return one(Double(nanoseconds) / 1_000_000) + "ms"
        default: return one(Double(nanoseconds) / 1_000_000_000) + "s"
        }
    }
}

/// The text of one finding a test framework reports: the rule and what it found, where, and the fix.
enum LeakCheckMessage {
    static func text(_ finding: LeakReport.Finding) -> String {
        var text = "\(finding.rule) \(finding.severity): \(finding.summary)"
        if let site = finding.site { text += " (at \(site))" }
        return text + ". Fix: " + finding.fix
    }
}
