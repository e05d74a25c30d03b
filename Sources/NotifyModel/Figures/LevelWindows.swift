/// Counts the header draws over time (live observers, names, threads, open findings), one
/// ``RateWindow`` each holding the level at the end of every bucket.
public struct LevelWindows: Sendable, Hashable {
    /// Live registrations.
    public internal(set) var observers: RateWindow
    /// Names observed or posted.
    public internal(set) var names: RateWindow
    /// Threads seen.
    public internal(set) var threads: RateWindow
    /// Open leak findings, all severities.
    public internal(set) var findings: RateWindow
}
