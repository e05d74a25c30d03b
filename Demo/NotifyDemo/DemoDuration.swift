/// `--duration 30`, `--duration 1.5s`, `250ms`, `2m`: how long the demo runs. Plain numbers are
/// seconds, as they always were.
package struct DemoDuration: Sendable, Hashable {
    /// Seconds, above 0.
    package let seconds: Double

    /// Nil unless `argument` is a positive number with an optional unit (`ms`, `s` or `m`).
    package init?(argument: String) {
        let text = argument.lowercased()
        let units: [(suffix: String, scale: Double)] = [("ms", 1e-3), ("s", 1), ("m", 60)]
        let unit = units.first { text.hasSuffix($0.suffix) }
        let number = text.dropLast(unit?.suffix.count ?? 0)
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number)
        else { return nil }
        let seconds = value * (unit?.scale ?? 1)
        guard seconds > 0, seconds <= 31_536_000 else { return nil }
        self.seconds = seconds
    }
}
