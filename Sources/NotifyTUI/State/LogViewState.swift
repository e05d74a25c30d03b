/// A mark dropped with `m` in a log (k9s): a separator line between what came before and after.
package struct LogMark: Sendable, Hashable {
    /// Counts up from 1 in each log view, so "mark 3" can be talked about.
    package var number: Int
    /// The log's clock when the mark was dropped (stream nanoseconds, or wall clock in view 6):
    /// rows at or before it are drawn above the mark, later rows below.
    package var time: UInt64
    /// The time as the log's TIME column writes it, for the separator and the title line.
    package var label: String

    /// Creates a mark.
    package init(number: Int, time: UInt64, label: String) {
        self.number = number
        self.time = time
        self.label = label
    }
}

/// The log's "now" as the last frame knew it: where `m` drops a mark and up to where `C` clears.
///
/// Why a frame value: the reducer is pure and never reads a clock, so the view that drew the log
/// says what its clock read, which also makes marks land on the paused or replayed time.
package struct LogClock: Sendable, Hashable {
    /// The newest time the log knows, in its own clock.
    package var now: UInt64
    /// `now` as the log's TIME column writes it.
    package var label: String

    /// Creates a clock reading.
    package init(now: UInt64, label: String) {
        self.now = now
        self.label = label
    }
}

/// What `m`, `C` and `w` changed in one log view (Threads, Events, Log): marks, a clear and line
/// wrapping. Kept in ``ViewState`` rather than in the data, so it survives pause and replay seeks
/// and the model stays a pure fold of events.
package struct LogViewState: Sendable, Hashable {
    /// Marks, oldest first.
    package var marks: [LogMark] = []
    /// Rows (and marks) at or before this time are hidden (`C`); nil shows everything.
    package var clearedThrough: UInt64?
    /// Whether long cells wrap onto continuation lines instead of ending in an ellipsis (`w`).
    package var wrap = false
    /// The last mark number the clear hides (marks dropped after `C` show, even at the same time).
    package var clearedMarks = 0

    /// Creates an empty log state.
    package init() {}

    /// Marks not hidden by a clear, oldest first.
    package var visibleMarks: [LogMark] {
        guard clearedThrough != nil else { return marks }
        return marks.filter { $0.number > clearedMarks }
    }

    /// Adds a mark at the clock's time.
    package mutating func mark(at clock: LogClock) {
        marks.append(LogMark(number: (marks.last?.number ?? 0) + 1, time: clock.now, label: clock.label))
    }

    /// `C`: hides everything up to the clock's time; a second `C` shows it all again.
    package mutating func toggleClear(at clock: LogClock) {
        clearedThrough = clearedThrough == nil ? clock.now : nil
        clearedMarks = marks.last?.number ?? 0
    }
}

/// Which groups of the grouped Observers view are folded to one summary row (`o`, `O`).
///
/// Stored as a default plus exceptions, so "collapse all" also folds groups that appear later.
package struct GroupFolding: Sendable, Hashable {
    /// Whether groups start collapsed (`O` flips it).
    package var collapsedByDefault = false
    /// Groups, by their first-column text, folded the other way from the default.
    package var toggled: Set<String> = []

    /// Creates folding with every group open.
    package init() {}

    /// Whether `group` shows as one summary row.
    package func isCollapsed(_ group: String) -> Bool { collapsedByDefault != toggled.contains(group) }

    /// Whether any group could be folded at all, so the table can skip the work when none is.
    package var foldsAny: Bool { collapsedByDefault || !toggled.isEmpty }

    /// `o`: folds or unfolds one group.
    package mutating func toggle(_ group: String) {
        if toggled.contains(group) { toggled.remove(group) } else { toggled.insert(group) }
    }

    /// `O`: folds every group, or opens every group when all were folded.
    package mutating func toggleAll() {
        collapsedByDefault = !(collapsedByDefault && toggled.isEmpty)
        toggled = []
    }
}
