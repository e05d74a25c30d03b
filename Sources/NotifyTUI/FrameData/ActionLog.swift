import NotifyModel

/// What notifytop itself did, with wall-clock times: attached, stream header, events lost,
/// recordings, exports, filter errors, reconnects. Shown in view 6 (`@`), so what the dashboard
/// says can be trusted (lazygit's command log).
///
/// A fixed ring like ``EventTail``: the oldest entries drop out, and ``dropped`` counts them.
package struct ActionLog: Sendable, Hashable {
    /// What kind of thing happened.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Attached to a process or opened a recording.
        case attach
        /// The stream said something about itself: header, end.
        case stream
        /// Events were lost (a gap in the stream).
        case loss
        /// A reconnect, or an attempt.
        case reconnect
        /// A session recording started or stopped.
        case recording
        /// A file was saved (view export, screen dump).
        case export
        /// A filter or search could not be used.
        case filter
        /// Anything else worth knowing (malformed lines, failures).
        case note
    }

    /// One thing notifytop did.
    package struct Entry: Sendable, Hashable {
        /// Wall-clock time, nanoseconds since 1970 (UTC).
        package var time: UInt64
        /// What kind of thing.
        package var kind: Kind
        /// One line.
        package var text: String

        /// Creates an entry.
        package init(time: UInt64, kind: Kind, text: String) {
            self.time = time
            self.kind = kind
            self.text = text
        }
    }

    /// How many entries are kept.
    package var capacity: Int { ring.capacity }
    /// Entries pushed out of the ring so far.
    package var dropped: UInt64 { ring.overwritten }
    /// Seconds east of UTC for showing times in local time; the session sets it.
    package var utcOffsetSeconds = 0
    private var ring: RingBuffer<Entry>

    /// Creates an empty log.
    package init(capacity: Int = 500) {
        ring = RingBuffer(capacity: capacity)
    }

    /// Adds an entry, dropping the oldest when full.
    package mutating func append(_ kind: Kind, _ text: String, at time: UInt64) {
        ring.append(Entry(time: time, kind: kind, text: text))
    }

    /// The kept entries, oldest first.
    package var entries: [Entry] { ring.elements }

    /// How many entries are kept now.
    package var count: Int { ring.count }
}
