import ArgumentParser
import NotifySystem

/// A time on notifytop's command line, for every option that takes one (`-d`, `--from`, `--to`,
/// `--timeout`, `explain --for`): `2` (seconds), `2s`, `1.5s`, `500ms`, `1m`, any case, read by
/// `DurationText` as the `g` prompt and notify-demo's `--duration` read them.
package struct CommandDuration: Sendable, Hashable, Comparable, ExpressibleByArgument {
    /// Nanoseconds.
    package let nanoseconds: UInt64
    /// The time as typed, for messages.
    package let text: String

    /// Nil unless `argument` is a non-negative time in one of those spellings, ASCII digits only,
    /// below about 146 years: no sign, exponent, `nan` or `inf`.
    package init?(argument: String) {
        guard let nanoseconds = DurationText.nanoseconds(argument) else { return nil }
        self.nanoseconds = nanoseconds
        text = argument
    }

    /// A default value: `milliseconds` ms.
    package init(milliseconds: UInt64) {
        nanoseconds = milliseconds * 1_000_000
        text = "\(milliseconds)ms"
    }

    /// Whole milliseconds, saturating at `Int.max`.
    package var milliseconds: Int { Int(clamping: nanoseconds / 1_000_000) }

    package var defaultValueDescription: String { text }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds == rhs.nanoseconds }

    package func hash(into hasher: inout Hasher) { hasher.combine(nanoseconds) }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
