/// What a center kept of its own history while no probe watched: a value read by
/// ``NotifyCenter/history()``, for a trace exporter to hand to a viewer that attaches late.
///
/// Counts are totals since ``since`` and only grow: the difference between two readings is what
/// happened unwatched in between.
package struct NotifyHistory: Sendable {
    /// Whose counts: a thread and a name (nil for names beyond what the center keeps).
    package struct Key: Sendable, Hashable {
        package var thread: UInt64
        /// A notification's name, or a typed message's type name; nil stands for every name the
        /// center could not keep (see ``CenterHistory/nameCapacity``).
        package var name: String?

        package init(thread: UInt64, name: String?) {
            self.thread = thread
            self.name = name
        }
    }

    /// An explicit ``NotifyCenter/checkpoint(_:file:line:)``.
    package struct Checkpoint: Sendable, Equatable {
        package var label: String
        package var callsite: ProbeEvent.Callsite
        package var thread: UInt64
        package var timestamp: UInt64
        /// A probe was attached when it was made, so probes received it as an event.
        package var watched: Bool

        package init(label: String, callsite: ProbeEvent.Callsite, thread: UInt64, timestamp: UInt64, watched: Bool) {
            self.label = label
            self.callsite = callsite
            self.thread = thread
            self.timestamp = timestamp
            self.watched = watched
        }
    }

    /// The live registrations of one (name, callsite) pair after each of its latest changes.
    package struct SiteCount: Sendable, Equatable {
        /// The observed name (a typed message's type name); nil for every name.
        package var name: String?
        package var callsite: ProbeEvent.Callsite
        /// Oldest first: when the count changed and what it became.
        package var changes: [(timestamp: UInt64, live: Int)]

        package static func == (lhs: SiteCount, rhs: SiteCount) -> Bool {
            lhs.name == rhs.name && lhs.callsite == rhs.callsite
                && lhs.changes.elementsEqual(rhs.changes) { $0.timestamp == $1.timestamp && $0.live == $1.live }
        }
    }

    /// ``MonotonicClock`` nanoseconds when the center began keeping history (its creation).
    package var since: UInt64
    /// Posts, deliveries and unheard posts no probe saw, by thread and name; exited threads
    /// included. Only pairs with a count.
    package var counts: [Key: HistoryCounts]
    /// The latest explicit checkpoints, oldest first, watched or not.
    package var checkpoints: [Checkpoint]
    /// The (name, callsite) pairs with a live registration, with their latest changes.
    package var siteCounts: [SiteCount]
    /// Threads of ``counts`` that have exited, as they were when they began counting.
    package var exitedThreads: [UInt64: NotifyThread]

    /// How many names a center keeps counts for; posts of further names count under no name.
    package static var keptNames: Int { CenterHistory.nameCapacity }

    /// Whether some counts are under no name: the center met more names than it keeps.
    package var hasUnkeptNames: Bool { counts.keys.contains { $0.name == nil } }
}
