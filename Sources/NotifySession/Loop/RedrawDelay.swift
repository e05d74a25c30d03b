import ArgumentParser

/// `-d 250ms`, `--delay 1.5s`: the dashboard's redraw delay. The unit is required, so a bare `2`
/// (seconds in top, tenths in watch) is refused rather than guessed.
package struct RedrawDelay: Sendable, Hashable, ExpressibleByArgument {
    /// Whole milliseconds, at least 1.
    package let milliseconds: Int

    /// `250ms` or `1.5s`; nil without a unit, or when not above 0 or over a day.
    package init?(argument: String) {
        let text = argument.lowercased()
        let milliseconds: Double
        if text.hasSuffix("ms"), let value = Self.number(text.dropLast(2)) {
            milliseconds = value
        } else if text.hasSuffix("s"), let value = Self.number(text.dropLast()) {
            milliseconds = value * 1000
        } else {
            return nil
        }
        guard milliseconds >= 1, milliseconds <= 86_400_000 else { return nil }
        self.milliseconds = Int(milliseconds)
    }

    /// A delay of `milliseconds` (at least 1).
    package init(milliseconds: Int) {
        self.milliseconds = max(1, milliseconds)
    }

    package var defaultValueDescription: String { "\(milliseconds)ms" }

    /// Digits with at most one point; Double alone would also take `nan`, `inf` and `1e3`.
    private static func number(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { return nil }
        return Double(text)
    }
}
