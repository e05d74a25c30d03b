import ArgumentParser
import NotifyTUI

/// `--from` and `--to`: a time into a replay, spelled as at the `g` prompt (`1.5s`, `250ms`, `2m`,
/// or plain seconds).
package struct ReplayTime: Sendable, Hashable, Comparable, ExpressibleByArgument {
    /// Nanoseconds after the recording's clock base.
    package let nanoseconds: UInt64
    /// The time as typed, for messages.
    package let text: String

    /// Nil when `argument` is not a non-negative time in one of `TimeOffset`'s spellings.
    package init?(argument: String) {
        guard let nanoseconds = TimeOffset.nanoseconds(argument) else { return nil }
        self.nanoseconds = nanoseconds
        text = argument
    }

    package var defaultValueDescription: String { text }

    package static func == (lhs: ReplayTime, rhs: ReplayTime) -> Bool { lhs.nanoseconds == rhs.nanoseconds }

    package func hash(into hasher: inout Hasher) { hasher.combine(nanoseconds) }

    package static func < (lhs: ReplayTime, rhs: ReplayTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
