/// Counts since the model started; never windowed.
public struct InspectorTotals: Sendable, Hashable {
    /// Every event applied (definitions and header included).
    public internal(set) var events: UInt64 = 0
    /// Posts.
    public internal(set) var posts: UInt64 = 0
    /// Handler runs.
    public internal(set) var deliveries: UInt64 = 0
    /// Registrations seen (preexisting included).
    public internal(set) var registrations: UInt64 = 0
    /// Registrations ended.
    public internal(set) var removals: UInt64 = 0
    /// Tokens dropped while registered.
    public internal(set) var tokenDrops: UInt64 = 0
    /// `removeObserver` calls that ended nothing.
    public internal(set) var missedRemovals: UInt64 = 0
    /// Notification-queue actions.
    public internal(set) var queueActions: UInt64 = 0
}
