/// Counts since the model started; never windowed.
public struct InspectorTotals: Sendable, Hashable {
    /// Every event applied (definitions and header included).
    public internal(set) var events: UInt64 = 0
    /// Posts.
    public internal(set) var posts: UInt64 = 0
    /// Handler runs.
    public internal(set) var deliveries: UInt64 = 0
    /// The part of ``posts`` whose names the app could not keep apart (its history's "other
    /// names"): counted, but in no name's row.
    public internal(set) var otherNamePosts: UInt64 = 0
    /// The part of ``deliveries`` for those other names.
    public internal(set) var otherNameDeliveries: UInt64 = 0
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
    /// Registrations of typed messages seen (main-actor, async and message sequences).
    public internal(set) var messageRegistrations: UInt64 = 0
    /// Typed messages queued into an observer's mailbox or a sequence's buffer.
    public internal(set) var messageEnqueues: UInt64 = 0
    /// Messages a full sequence buffer dropped (its oldest) to take a new one.
    public internal(set) var messagesDropped: UInt64 = 0
}
