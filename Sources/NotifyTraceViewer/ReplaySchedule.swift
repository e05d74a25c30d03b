/// When each event of a recording is due during replay: pure arithmetic over event timestamps,
/// so pacing is tested without sleeping.
public struct ReplaySchedule: Sendable, Equatable {
    /// How fast to replay: 0 as fast as possible, 1 real time, 2 twice as fast.
    public var speed: Double
    /// Seconds from the start of the recording before which events are folded at once, unpaced.
    public var from: Double
    /// Seconds from the start after which the replay stops; nil for the whole recording.
    public var until: Double?

    public init(speed: Double = 1, from: Double = 0, until: Double? = nil) {
        self.speed = max(0, speed)
        self.from = max(0, from)
        self.until = until
    }

    /// What to do with an event `offset` nanoseconds after the recording's first event.
    public enum Decision: Sendable, Equatable {
        /// Apply it now (before `from`, or when replaying as fast as possible).
        case now
        /// Apply it after waiting this many nanoseconds of wall time from the replay's start.
        case at(UInt64)
        /// Past `until`: stop.
        case stop
    }

    public func decision(forOffset offset: UInt64) -> Decision {
        let seconds = Double(offset) / 1e9
        if let until, seconds > until { return .stop }
        if speed == 0 || seconds <= from { return .now }
        return .at(UInt64((seconds - from) / speed * 1e9))
    }
}
