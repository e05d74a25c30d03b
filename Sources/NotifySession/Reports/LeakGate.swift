package import NotifyModel
package import NotifyLeakBaseline

/// `--fail-on` with an optional `--baseline`: the open findings of the severity or worse, split
/// into new ones (which fail the run) and known ones (listed apart, not failing).
package struct LeakGate: Sendable {
    /// The open findings of ``severity`` or worse whose signature is not in the baseline, worst first.
    package let new: [LeakFinding]
    /// Those whose signature is in the baseline, worst first.
    package let known: [LeakFinding]
    /// The threshold.
    package let severity: LeakSeverity
    /// Whether a baseline was given.
    package let hasBaseline: Bool

    /// Splits `model`'s open findings of `severity` or worse by `baseline`.
    package init(_ model: InspectorState, atLeast severity: LeakSeverity, baseline: LeakBaseline?) {
        let failing = model.findings.filter { $0.isOpen && $0.severity >= severity }
            .sorted { ($1.severity, $0.ordinal) < ($0.severity, $1.ordinal) }
        new = failing.filter { !(baseline?.contains($0) ?? false) }
        known = failing.filter { baseline?.contains($0) ?? false }
        self.severity = severity
        hasBaseline = baseline != nil
    }

    /// True when the run fails: some finding is new.
    package var fails: Bool { !new.isEmpty }

    /// What standard error says: the known findings apart, then each new one and a total.
    package var messages: [String] {
        var lines = known.map { "--baseline known: " + BatchPrinter.failingLine($0) }
        lines += new.map { "--fail-on \(severity): " + BatchPrinter.failingLine($0) }
        let plural = new.count == 1 ? "" : "s"
        if fails {
            lines.append(
                "\(new.count) open finding\(plural) of severity \(severity) or worse"
                    + (hasBaseline ? " not in the baseline (\(known.count) known)" : ""))
        } else if !known.isEmpty {
            lines.append(
                "\(known.count) open finding\(known.count == 1 ? "" : "s") of severity \(severity) or worse, all in the baseline"
            )
        }
        return lines
    }
}
