/// Counts the header draws over time (live observers, names, threads, open findings), one
/// ``RateWindow`` each holding the level at the end of every bucket.
package struct LevelWindows: Sendable, Hashable {
    /// Live registrations.
    package internal(set) var observers: RateWindow
    /// Names observed or posted.
    package internal(set) var names: RateWindow
    /// Threads seen.
    package internal(set) var threads: RateWindow
    /// Open leak findings, all severities.
    package internal(set) var findings: RateWindow
}
