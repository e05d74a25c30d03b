/// Times as the package's command lines and prompts read them: `2` (seconds), `2s`, `1.5s`,
/// `500ms`, `1m`, any case. notifytop's time options, its `g` prompt and notify-demo's `--duration`
/// all read them here, so a time typed in one place works in every other.
package enum DurationText {
    /// The largest time read: about 146 years, so a sum of two never wraps.
    package static let maximumNanoseconds = UInt64.max / 2

    /// Nanoseconds for `text`; nil unless it is ASCII digits with at most one point and an optional
    /// unit (`ms`, `s`, `m`): no sign, space, exponent, `nan` or `inf`, nothing above
    /// ``maximumNanoseconds``.
    package static func nanoseconds(_ text: String) -> UInt64? {
        let lowered = text.lowercased()
        let units: [(suffix: String, scale: Double)] = [("ms", 1e6), ("s", 1e9), ("m", 60e9)]
        let unit = units.first { lowered.hasSuffix($0.suffix) }
        let number = lowered.dropLast(unit?.suffix.count ?? 0)
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite
        else { return nil }
        let nanoseconds = value * (unit?.scale ?? 1e9)
        guard nanoseconds < Double(maximumNanoseconds) else { return nil }
        return UInt64(nanoseconds)
    }
}
