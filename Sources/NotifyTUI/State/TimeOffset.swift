/// Times typed by the user for replays: `1.5s`, `250ms`, `2m`, or plain seconds (`12`, `0.5`).
///
/// Why one parser: `--from`, `--to` and the `g` prompt take the same spellings, so what works on
/// the command line works at the prompt.
package enum TimeOffset {
    /// Nanoseconds for `text`; nil when it is not a non-negative time in one of those spellings
    /// (ASCII digits and one point: no sign, exponent, `nan` or `inf`), or is above about 146 years.
    package static func nanoseconds(_ text: String) -> UInt64? {
        let trimmed = text.trimmingSpaces().lowercased()
        let units: [(suffix: String, scale: Double)] = [("ms", 1e6), ("s", 1e9), ("m", 60e9)]
        var number = trimmed
        var scale = 1e9
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = String(trimmed.dropLast(unit.suffix.count))
            scale = unit.scale
            break
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number),
            value.isFinite, value >= 0, value * scale < Double(UInt64.max / 2)
        else { return nil }
        return UInt64(value * scale)
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var result = Substring(self)
        while result.first == " " { result.removeFirst() }
        while result.last == " " { result.removeLast() }
        return String(result)
    }
}
