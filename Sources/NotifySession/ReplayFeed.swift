import NotifyEvents
import NotifyTrace

/// Plays a recording on a virtual clock: events are due when their offset from the first event is
/// reached, at a speed that can change, pause, or step one event or one second at a time.
///
/// It runs on the run loop's thread (a file never blocks), so stepping is deterministic: the same
/// keys over the same file always fold the same events.
public final class ReplayFeed {
    /// Slowest and fastest speeds the keys reach.
    public static let speeds: ClosedRange<Double> = 0.25...64

    /// How fast the clock runs; 0 plays everything at once.
    public private(set) var speed: Double
    /// Whether the clock is stopped.
    public var paused = false
    /// Virtual nanoseconds since the recording's first event.
    public private(set) var position: UInt64 = 0
    /// Stream time of the first timed event.
    public private(set) var start: UInt64?
    /// The end of the recording, once reached.
    public private(set) var end: TraceStreamEnd?
    /// The recording's path.
    public let origin: String

    private let reader: TraceReader
    private var lookahead: TraceEvent?

    /// Replays `reader` at `speed` (0 = as fast as possible).
    public init(reader: TraceReader, speed: Double) {
        self.reader = reader
        self.origin = reader.origin
        self.speed = speed
    }

    /// Changes the speed by a factor, within ``speeds``.
    public func scaleSpeed(by factor: Double) {
        let base = speed == 0 ? Self.speeds.upperBound : speed
        speed = min(Self.speeds.upperBound, max(Self.speeds.lowerBound, base * factor))
    }

    /// The stream time the replay has reached.
    public var now: UInt64 { (start ?? 0) &+ position }

    /// Advances the clock by `elapsed` wall nanoseconds (unless paused) and returns the events due,
    /// at most `limit` of them so one tick never stalls the screen.
    public func advance(elapsedNanoseconds elapsed: UInt64, limit: Int = 200_000) -> [TraceEvent] {
        if !paused && speed > 0 { position &+= UInt64(Double(elapsed) * speed) }
        let threshold = speed == 0 && !paused ? UInt64.max : position
        return take(limit: limit) { offset in offset <= threshold }
    }

    /// Applies the next `count` timed events regardless of the clock, and moves the clock to the last.
    public func step(events count: Int) -> [TraceEvent] {
        var remaining = count
        let events = take(limit: .max) { _ in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        return events
    }

    /// Moves the clock forward by `seconds` and returns the events that became due.
    public func step(seconds: Double) -> [TraceEvent] {
        position &+= UInt64(seconds * 1e9)
        let threshold = position
        return take(limit: .max) { offset in offset <= threshold }
    }

    /// Pulls events while `due` accepts their offset; untimed lines (header, definitions) always go.
    private func take(limit: Int, due: (UInt64) -> Bool) -> [TraceEvent] {
        var events: [TraceEvent] = []
        while events.count < limit {
            guard let event = peek() else { break }
            if let time = event.timestamp {
                if start == nil { start = time }
                let offset = time >= start! ? time - start! : 0
                guard due(offset) else { break }
                position = max(position, offset)
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
