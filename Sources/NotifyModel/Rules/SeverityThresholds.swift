/// Three optional thresholds that grade a measured value as info, warning or error.
///
/// Why optional levels: a server or CLI may not care about one 60 Hz frame (turn info off), and a
/// test may want only one level.
public struct SeverityThresholds: Sendable, Hashable {
    /// Values at or above this are info; nil turns the level off.
    public var info: UInt64?
    /// Values at or above this are warnings; nil turns the level off.
    public var warning: UInt64?
    /// Values at or above this are errors; nil turns the level off.
    public var error: UInt64?

    /// Creates thresholds (nanoseconds for durations).
    public init(info: UInt64?, warning: UInt64?, error: UInt64?) {
        self.info = info
        self.warning = warning
        self.error = error
    }

    /// The grade of `value`; nil below every enabled level.
    @inline(__always)
    public func severity(of value: UInt64) -> LeakSeverity? {
        if let error, value >= error { return .error }
        if let warning, value >= warning { return .warning }
        if let info, value >= info { return .info }
        return nil
    }

    /// The lowest enabled level, for a one-compare fast path; `UInt64.max` when all are off.
    var lowest: UInt64 { Swift.min(info ?? .max, warning ?? .max, error ?? .max) }
}
