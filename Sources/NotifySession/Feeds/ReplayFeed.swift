package import NotifyWire
package import NotifySystem
package import NotifyTraceViewer

/// Plays a recording on a virtual clock: events are due when their offset from the first event is
/// reached, at a speed that can change, pause, step one event or one second at a time either way,
/// or jump to a time.
///
/// It runs on the run loop's thread (a file never blocks), so stepping is deterministic: the same
/// keys over the same file always fold the same events. Stepping back re-reads the file from its
/// start (the model is a pure fold, so folding again up to the target reproduces the state there):
/// O(events before the target) per step, and no event history kept in memory.
package final class ReplayFeed {
    /// Slowest and fastest speeds the keys reach.
    package static let speeds: ClosedRange<Double> = 0.25...64

    /// Where a seek goes.
    package enum Target: Sendable, Equatable {
        /// Just after this many timed events from the start.
        case events(Int)
        /// This many nanoseconds after the recording's start: its first timed event (the `@t` the
        /// header shows), whatever clock base its header names.
        case time(UInt64)
    }

    /// How fast the clock runs; 0 plays everything at once.
    package private(set) var speed: Double
    /// Whether the clock is stopped.
    package var paused = false
    /// Virtual nanoseconds since the recording's first event.
    package private(set) var position: UInt64 = 0
    /// Stream time of the first timed event.
    package private(set) var start: UInt64?
    /// The end of the recording, once reached.
    package private(set) var end: TraceStreamEnd?
    /// The recording's path.
    package let origin: String
    /// `--from`: nanoseconds after the recording's start before which events are folded at once.
    package let from: UInt64
    /// `--to`: nanoseconds after the recording's start at which the replay ends; nil plays to the end.
    package let to: UInt64?
    /// Timed events taken so far (what `,` steps back from).
    package private(set) var timedEvents = 0
    /// Whether the replay stopped at ``to``.
    package private(set) var reachedTo = false

    private var reader: TraceReader
    private let reopen: (() throws(TraceError) -> TraceReader)?
    private var lookahead: TraceEvent?
    /// The header's clock: a mid-session recording's prelude lines are older and fold at once.
    private var clockBase: UInt64?
    /// Clock position of the newest timed event taken: where an ended replay's clock stops.
    package private(set) var lastEventPosition: UInt64 = 0

    /// Replays `reader` at `speed` (0 = as fast as possible). It cannot step back: it has no way to
    /// read its source again.
    package init(reader: TraceReader, speed: Double) {
        self.reader = reader
        self.origin = reader.origin
        self.speed = speed
        from = 0
        to = nil
        reopen = nil
    }

    /// Replays the recording at `path` between `from` and `to` (nanoseconds after its first timed
    /// event). A recording made mid-session (`r`) carries the session's header, whose clock base
    /// is earlier than anything in the file: it does not count.
    package init(path: String, speed: Double, from: UInt64 = 0, to: UInt64? = nil) throws(TraceError) {
        reader = try TraceReader.open(file: path)
        origin = path
        self.speed = speed
        self.from = from
        self.to = to
        reopen = { () throws(TraceError) -> TraceReader in try TraceReader.open(file: path) }
    }

    /// Changes the speed by a factor, within ``speeds``.
    package func scaleSpeed(by factor: Double) {
        let base = speed == 0 ? Self.speeds.upperBound : speed
        speed = min(Self.speeds.upperBound, max(Self.speeds.lowerBound, base * factor))
    }

    /// The stream time the replay has reached.
    package var now: UInt64 { (start ?? 0) &+ position }

    /// Whether no more events will come: the file ended or ``to`` was reached.
    package var isFinished: Bool { end != nil || reachedTo }

    /// Why the replay finished, for the ENDED badge.
    package var finishReason: String {
        guard reachedTo, let to else { return end?.description ?? "" }
        let tenths = to / 100_000_000 + (to % 100_000_000 >= 50_000_000 ? 1 : 0)
        return "reached --to \(tenths / 10).\(tenths % 10) s"
    }

    /// Whether `rewind()` can read the recording again.
    package var canRewind: Bool { reopen != nil }

    /// Advances the clock by `elapsed` wall nanoseconds (unless paused) and returns the events due,
    /// at most `limit` of them so one tick never stalls the screen.
    package func advance(elapsedNanoseconds elapsed: UInt64, limit: Int = 200_000) -> [TraceEvent] {
        if !paused && speed > 0 && start != nil && !isFinished {
            // Saturates: a huge wall-clock jump at a high speed plays to the end, never traps.
            let step = Double(elapsed) * speed
            let room = UInt64.max - position
            position = step >= Double(room) ? .max : position + UInt64(step)
        }
        clampPosition()
        let threshold = speed == 0 && !paused ? UInt64.max : position
        let events = take(limit: limit) { offset in offset <= threshold }
        clampPosition()
        return events
    }

    /// Keeps the clock within the replay: never past ``to``, and, once the recording has ended,
    /// never past its last event.
    private func clampPosition() {
        if let end = positionOf(to) { position = min(position, end) }
        if end != nil { position = min(position, lastEventPosition) }
    }

    /// Where the recording's last timed event is, once the replay has read that far; nil before.
    package var endPosition: UInt64? { end != nil ? lastEventPosition : nil }

    /// Applies the next `count` timed events regardless of the clock, and moves the clock to the last.
    package func step(events count: Int) -> [TraceEvent] {
        var remaining = count
        let events = take(limit: .max) { _ in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        return events
    }

    /// Moves the clock forward by `seconds` and returns the events that became due.
    package func step(seconds: Double) -> [TraceEvent] {
        let target = position &+ UInt64(seconds * 1e9)
        let events = take(limit: .max) { offset in offset <= target }
        if !reachedTo { position = max(position, target) }
        clampPosition()
        return events
    }

    /// The target `events` timed events back from here (never before the start, nor before `--from`).
    package func target(back events: Int) -> Target { .events(max(0, timedEvents - events)) }

    /// The target `seconds` back from the current time.
    package func target(backSeconds seconds: Double) -> Target {
        let current = timeOf(position)
        let back = UInt64(seconds * 1e9)
        return .time(current > back ? current - back : 0)
    }

    /// Whether reaching `target` means going back (and so re-reading from the start).
    package func isBehind(_ target: Target) -> Bool {
        switch target {
        case .events(let count): count < timedEvents
        case .time(let time): start != nil && time < timeOf(position)
        }
    }

    /// Starts over from the first line, as if just opened.
    package func rewind() throws(TraceError) {
        guard let reopen else { throw .invalid("\(origin) cannot be read again") }
        reader = try reopen()
        position = 0
        start = nil
        end = nil
        lookahead = nil
        clockBase = nil
        lastEventPosition = 0
        timedEvents = 0
        reachedTo = false
    }

    /// Returns up to `limit` of the events before `target` (call until it returns none); the clock
    /// ends at the target (or at the last event, for ``Target/events(_:)``).
    package func take(until target: Target, limit: Int = 200_000) -> [TraceEvent] {
        let events: [TraceEvent]
        switch target {
        case .events(let count):
            events = take(limit: limit) { _ in timedEvents < count }
        case .time(let time):
            events = take(limit: limit) { offset in offset <= positionOf(time) ?? 0 }
            if events.count < limit, !reachedTo, let wanted = positionOf(time) {
                position = max(position, wanted)
            }
            clampPosition()
        }
        return events
    }

    /// Nanoseconds after the recording's start for a clock position: the clock counts from the
    /// first timed event, so they are the same.
    private func timeOf(_ position: UInt64) -> UInt64 { position }

    /// The clock position of a time after the recording's start; nil before the first timed event.
    private func positionOf(_ time: UInt64?) -> UInt64? {
        guard let time, start != nil else { return nil }
        return time
    }

    /// Pulls events while `due` accepts their offset; untimed lines (header, definitions) always go.
    /// An event past ``to`` ends the replay and stays unread.
    private func take(limit: Int, due: (UInt64) -> Bool) -> [TraceEvent] {
        var events: [TraceEvent] = []
        while events.count < limit, !reachedTo {
            guard let event = peek() else { break }
            if case .header(let header) = event, clockBase == nil { clockBase = header.clockMono }
            if let time = event.timestamp {
                if start == nil {
                    // Lines older than the header's clock (a recording's prelude) fold at once.
                    start = max(time, clockBase ?? time)
                    position = max(position, positionOf(from) ?? 0)
                }
                let offset = time >= start! ? time - start! : 0
                if let end = positionOf(to), offset > end {
                    reachedTo = true
                    position = end
                    break
                }
                guard offset <= (positionOf(from) ?? 0) || due(offset) else { break }
                position = max(position, offset)
                lastEventPosition = max(lastEventPosition, offset)
                timedEvents += 1
            }
            events.append(event)
            lookahead = nil
        }
        return events
    }

    private func peek() -> TraceEvent? {
        if let lookahead { return lookahead }
        guard end == nil else { return nil }
        switch reader.next(timeoutMilliseconds: 0) {
        case .event(let event):
            lookahead = event
            return event
        case .idle:
            return nil
        case .ended(let reason):
            end = reason
            return nil
        }
    }
}

extension ReplayFeed {
    /// "3 lines skipped (first at line 101)" once malformed lines of the recording were skipped.
    package var skippedLines: String? { reader.skippedLines }

    /// Why the recording could not be read to its end (a line in a format this notifytop does not
    /// read, such as another major version's header, or a read error); nil while it reads well.
    package var failure: String? {
        if case .failed(let message) = end { return message }
        return nil
    }
}
