/// Where the events come from and whether more will come.
///
/// Why the caller sets most of it: connecting, disconnecting and replay position are facts of
/// the transport, not events in the trace. The model sets ``live`` on a header and ``ended(_:)``
/// on an `end` line; ``InspectorState/setStream(_:)`` sets the rest.
public enum StreamState: Sendable, Hashable, CustomStringConvertible {
    /// Nothing received yet.
    case waiting
    /// Events arrive from a running process.
    case live
    /// A recording is being replayed; `position` is stream nanoseconds from its first event and
    /// `duration` its length when known.
    case replaying(position: UInt64, duration: UInt64?)
    /// No more events will come; the text says why (the `end` line's reason, or the reader's).
    case ended(String)

    /// `"live"`, `"replay 12.5 s / 60.0 s"`, `"ended (process-exit)"`.
    public var description: String {
        switch self {
        case .waiting: "waiting"
        case .live: "live"
        case .replaying(let position, let duration):
            "replay \(Self.seconds(position))" + (duration.map { " / \(Self.seconds($0))" } ?? "")
        case .ended(let reason): "ended (\(reason))"
        }
    }

    private static func seconds(_ nanoseconds: UInt64) -> String {
        let tenths = (nanoseconds + 50_000_000) / 100_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
