import NotifySystem

/// `--duration 30`, `--duration 1.5s`, `250ms`, `2m`: how long the demo runs, read by
/// `DurationText` as notifytop reads its times. Plain numbers are seconds, as they always were.
package struct DemoDuration: Sendable, Hashable {
    /// Seconds, above 0.
    package let seconds: Double

    /// Nil unless `argument` is a time `DurationText` reads, above 0 and at most a year.
    package init?(argument: String) {
        guard let nanoseconds = DurationText.nanoseconds(argument), nanoseconds > 0,
            nanoseconds <= 31_536_000 * 1_000_000_000
        else { return nil }
        seconds = Double(nanoseconds) / 1e9
    }
}
