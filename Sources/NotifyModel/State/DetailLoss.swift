/// What the model left out to stay bounded: the dashboard says so instead of showing a partial
/// figure as a whole one.
///
/// Why counters and not one flag: each tells the user which view is incomplete.
public struct DetailLoss: Sendable, Hashable {
    /// Removed registrations retired from the table (by age or by the cap).
    public internal(set) var retiredRegistrations: UInt64 = 0
    /// Of those, retired early because the cap was reached.
    public internal(set) var registrationsEvictedByCap: UInt64 = 0
    /// Registrations not tracked because ``InspectorConfiguration/maximumLiveRegistrations`` was reached.
    public internal(set) var untrackedRegistrations: UInt64 = 0
    /// Deliveries, removals and token drops for registrations the model does not know (retired,
    /// untracked, or lost in a gap).
    public internal(set) var unknownRegistrationEvents: UInt64 = 0
    /// Idle names forgotten past the names cap.
    public internal(set) var forgottenNames: UInt64 = 0
    /// Threads forgotten past the threads cap.
    public internal(set) var forgottenThreads: UInt64 = 0
    /// Object definitions forgotten past the objects cap.
    public internal(set) var forgottenObjects: UInt64 = 0
    /// Thread log entries overwritten (all threads, including forgotten ones).
    public internal(set) var overwrittenLogEntries: UInt64 = 0
    /// Owners R2(b) could not remember past ``InspectorConfiguration/maximumRemovalGaps``.
    public internal(set) var refusedRemovalGaps: UInt64 = 0
    /// Findings dropped past the findings cap.
    public internal(set) var droppedFindings: UInt64 = 0
    /// Near-name lookups (R9's typo check) cut short among too many similar names: a typo among
    /// them may go unreported.
    public internal(set) var nearNameLookupsCut: UInt64 = 0
    /// Lines of kinds this version does not know.
    public internal(set) var unknownLines: UInt64 = 0

    /// True when any view is incomplete (retiring removed rows by age is policy, not loss).
    public var any: Bool {
        registrationsEvictedByCap > 0 || untrackedRegistrations > 0
            || unknownRegistrationEvents > 0 || forgottenNames > 0 || forgottenThreads > 0 || forgottenObjects > 0
            || overwrittenLogEntries > 0 || droppedFindings > 0 || refusedRemovalGaps > 0
    }
}
