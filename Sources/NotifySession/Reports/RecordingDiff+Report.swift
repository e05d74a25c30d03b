import NotifyTUI

extension RecordingDiff {
    /// The human report: both sides, a per-name table of observers and deliveries A → B with
    /// deltas, then warnings new in B and resolved in B. Control characters in names, paths and
    /// summaries are shown as `?`, as on screen.
    package var text: String {
        var lines: [String] = []
        for (label, side) in [("A", a), ("B", b)] {
            lines.append(
                "\(label)  \(PrintableText.of(side.path))  \(PrintableText.of(side.process)) pid \(side.pid)  "
                    + Self.length(side))
        }
        for (label, side) in [("A", a), ("B", b)] {
            if let skipped = side.skippedLines {
                lines.append("note: \(label) \(PrintableText.of(side.path)): \(skipped)")
            }
        }
        if let ratio = Self.lengthRatio(a.durationNs, b.durationNs), ratio > 1.2 || ratio < 1 / 1.2 {
            lines.append(
                "note: the recordings differ in length (B is \(Self.one(ratio))× A), so compare deliveries "
                    + "per second (DELIV/S) rather than totals")
        }
        lines.append("")
        let shownNames = names.map { PrintableText.of($0.name) }
        let nameWidth = min(40, max(4, shownNames.map { DisplayWidth.of($0) }.max() ?? 4))
        let observers = names.map { "\($0.observersA) → \($0.observersB)" }
        let deliveries = names.map { "\($0.deliveriesA) → \($0.deliveriesB)" }
        let rates = names.map {
            Self.rate($0.deliveriesA, over: a.durationNs) + " → " + Self.rate($0.deliveriesB, over: b.durationNs)
        }
        let observerWidth = max(9, observers.map { DisplayWidth.of($0) }.max() ?? 0)
        let deliveryWidth = max(10, deliveries.map { DisplayWidth.of($0) }.max() ?? 0)
        let rateWidth = max(7, rates.map { DisplayWidth.of($0) }.max() ?? 0)
        let deltas = names.map { Self.delta($0.deliveriesA, $0.deliveriesB) }
        let deltaWidth = max(8, deltas.map { DisplayWidth.of($0) }.max() ?? 0)
        lines.append(
            DisplayWidth.fit("NAME", to: nameWidth) + "  "
                + DisplayWidth.fit("OBSERVERS", to: observerWidth, alignRight: true)
                + String(repeating: " ", count: 10)
                + DisplayWidth.fit("DELIVERIES", to: deliveryWidth, alignRight: true)
                + String(repeating: " ", count: deltaWidth + 3)
                + DisplayWidth.fit("DELIV/S", to: rateWidth, alignRight: true))
        for (index, change) in names.enumerated() {
            lines.append(
                DisplayWidth.fit(shownNames[index], to: nameWidth) + "  "
                    + DisplayWidth.fit(observers[index], to: observerWidth, alignRight: true) + " "
                    + DisplayWidth.fit(Self.delta(Int64(change.observersDelta)), to: 7, alignRight: true) + "  "
                    + DisplayWidth.fit(deliveries[index], to: deliveryWidth, alignRight: true) + " "
                    + DisplayWidth.fit(deltas[index], to: deltaWidth, alignRight: true) + "  "
                    + DisplayWidth.fit(rates[index], to: rateWidth, alignRight: true))
        }
        if names.isEmpty { lines.append("(no notification names in either recording)") }
        lines.append("")
        lines += Self.section("New warnings in B", newWarnings)
        lines += Self.section("Resolved in B", resolvedWarnings)
        return lines.joined(separator: "\n")
    }

    /// The machine report: one JSON object with sorted, snake_case keys.
    package var json: String { BatchJSON.encode(self) }

    private static func section(_ title: String, _ warnings: [Warning]) -> [String] {
        guard !warnings.isEmpty else { return ["\(title): none"] }
        var lines = ["\(title) (\(warnings.count)):"]
        for warning in warnings {
            lines.append(
                "  " + DisplayWidth.fit(warning.severity, to: 8) + PrintableText.of(warning.identity) + "  "
                    + PrintableText.of(warning.summary))
        }
        return lines
    }

    /// `+3`, `-2`, or blank when nothing changed, so changes stand out.
    static func delta(_ value: Int64) -> String {
        value == 0 ? "" : value > 0 ? "+\(value)" : "\(value)"
    }

    /// `b − a` exactly, as ``delta(_:)`` writes it, for counts up to 2^64 − 1.
    static func delta(_ a: UInt64, _ b: UInt64) -> String {
        b == a ? "" : b > a ? "+\(b - a)" : "-\(a - b)"
    }

    /// B's length over A's; nil when either is empty.
    static func lengthRatio(_ a: UInt64, _ b: UInt64) -> Double? {
        a > 0 && b > 0 ? Double(b) / Double(a) : nil
    }

    /// Deliveries per second over a recording's length, one decimal; `-` for an empty recording.
    static func rate(_ count: UInt64, over nanoseconds: UInt64) -> String {
        nanoseconds == 0 ? "-" : one(Double(count) / (Double(nanoseconds) / 1e9))
    }

    /// One decimal: `2.5`. A value too large for whole tenths (a recording claiming 2^63
    /// deliveries in a second) is written as Swift spells the double, `9.2e+18`, never trapping.
    static func one(_ value: Double) -> String {
        let scaled = (value * 10).rounded()
        guard scaled.isFinite, scaled >= 0, scaled < 0x1p62 else { return value.isNaN ? "-" : "\(value)" }
        let tenths = Int(scaled)
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The time rates divide by, `12.1 s`; for a recording that opens with the history its totals
    /// include, also how much of it was recorded as it happened.
    static func length(_ side: Side) -> String {
        let covered = seconds(side.durationNs)
        let recorded = seconds(side.recordedNs)
        return covered == recorded ? covered : "\(covered) (\(recorded) of it recorded, the rest history from before r)"
    }

    static func seconds(_ nanoseconds: UInt64) -> String {
        let tenths = nanoseconds / 100_000_000 + (nanoseconds % 100_000_000 >= 50_000_000 ? 1 : 0)
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
