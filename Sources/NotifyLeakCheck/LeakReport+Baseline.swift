@_exported public import NotifyLeakBaseline

extension LeakReport {
    /// The open findings of `severity` or worse whose signature `baseline` does not list, worst
    /// first: what `notifytop --fail-on` with `--baseline` fails on.
    ///
    /// The baseline is the file `notifytop baseline REC` writes, or one made from a known report's
    /// findings: `LeakBaseline(signatures: report.findings.map(\.signature))`.
    ///
    /// ```swift
    /// let known = try LeakBaseline(contentsOf: "Tests/ShopTests/known-leaks.json")
    /// let report = LeakCheck.run(on: center) { … }
    /// #expect(report.newFindings(against: known).isEmpty, "\(report)")
    /// ```
    public func newFindings(against baseline: LeakBaseline, atLeast severity: LeakSeverity = .info) -> [Finding] {
        findings(atLeast: severity).filter { !baseline.contains($0.finding) }
    }
}
