import ArgumentParser
import NotifyTUI

/// `--from` and `--to`: a time into a replay, spelled as at the `g` prompt (`1.5s`, `250ms`, `2m`,
/// or plain seconds).
public struct ReplayTime: Sendable, Hashable, Comparable, ExpressibleByArgument {
    /// Nanoseconds after the recording's clock base.
    public let nanoseconds: UInt64
    /// The time as typed, for messages.
    public let text: String

    /// Nil when `argument` is not a non-negative time in one of ``TimeOffset``'s spellings.
    public init?(argument: String) {
        guard let nanoseconds = TimeOffset.nanoseconds(argument) else { return nil }
        self.nanoseconds = nanoseconds
        text = argument
    }

    public var defaultValueDescription: String { text }

    public static func == (lhs: ReplayTime, rhs: ReplayTime) -> Bool { lhs.nanoseconds == rhs.nanoseconds }

    public func hash(into hasher: inout Hasher) { hasher.combine(nanoseconds) }

    public static func < (lhs: ReplayTime, rhs: ReplayTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
