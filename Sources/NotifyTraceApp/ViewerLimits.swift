public import Foundation
public import NotifySystem

/// What viewers may cost the inspected app. Every viewer gets an equal, fixed share of the memory
/// budget, so a stalled viewer never costs another one events.
public struct ViewerLimits: Sendable, Equatable {
    /// Viewers attached at once; one more gets a header and an `end` line with reason
    /// `viewer-limit`, and is disconnected.
    public var maximumViewers: Int
    /// Bytes queued for one viewer at most.
    public var viewerBufferBytes: Int
    /// Bytes queued for all viewers together at most.
    public var totalBufferBytes: Int
    /// A viewer that stays behind (it missed events and has no room to be told) this long is cut
    /// off with an `end` line with reason `disconnected`.
    public var stalledViewerSeconds: Double
    /// Viewers admitted per second at most (as many at once), since each costs the exporter a
    /// snapshot; one more is turned away like one beyond ``maximumViewers``.
    public var admissionsPerSecond: Double
    /// At the end of a stream: how long what is queued may take to reach viewers, then how long
    /// a viewer still behind has to take the final gap and `end` line.
    var endFlushNanoseconds: UInt64 = 500_000_000
    /// How long stopping waits for the `end` line to be queued: the final drain of the rings.
    var endQueuedNanoseconds: UInt64 = 10_000_000_000
    var endLastNanoseconds: UInt64 = 200_000_000

    public init(
        maximumViewers: Int = 8, viewerBufferBytes: Int = 8 << 20, totalBufferBytes: Int = 64 << 20,
        stalledViewerSeconds: Double = 5, admissionsPerSecond: Double = 20
    ) {
        self.maximumViewers = max(1, maximumViewers)
        self.viewerBufferBytes = max(4096, viewerBufferBytes)
        self.totalBufferBytes = max(4096, totalBufferBytes)
        self.stalledViewerSeconds = max(0, stalledViewerSeconds)
        self.admissionsPerSecond = max(1, admissionsPerSecond)
    }

    /// The bytes one viewer may hold: its own limit, or its share of the total.
    var shareBytes: Int { max(4096, min(viewerBufferBytes, totalBufferBytes / maximumViewers)) }
    /// Event lines beyond this are counted as missed; the rest of the share is kept for the lines
    /// that are never dropped (definitions, gaps, end).
    var eventBytes: Int { shareBytes - shareBytes / 4 }
    var stalledNanoseconds: UInt64 { UInt64(stalledViewerSeconds * 1e9) }

    /// The defaults, overridden by `NOTIFYTOP_MAX_VIEWERS`, `NOTIFYTOP_VIEWER_BUFFER_BYTES`,
    /// `NOTIFYTOP_TOTAL_BUFFER_BYTES` and `NOTIFYTOP_STALLED_VIEWER_SECONDS`.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(TraceError) -> ViewerLimits {
        var limits = ViewerLimits()
        func integer(_ name: String) throws(TraceError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text), value > 0 else {
                throw .invalid("\(name) must be a positive integer, not '\(text)'")
            }
            return value
        }
        if let value = try integer("NOTIFYTOP_MAX_VIEWERS") { limits.maximumViewers = value }
        if let value = try integer("NOTIFYTOP_VIEWER_BUFFER_BYTES") { limits.viewerBufferBytes = max(4096, value) }
        if let value = try integer("NOTIFYTOP_TOTAL_BUFFER_BYTES") { limits.totalBufferBytes = max(4096, value) }
        if let text = environment["NOTIFYTOP_STALLED_VIEWER_SECONDS"] {
            guard let value = Double(text), value >= 0, value.isFinite else {
                throw .invalid("NOTIFYTOP_STALLED_VIEWER_SECONDS must be a number of seconds, not '\(text)'")
            }
            limits.stalledViewerSeconds = value
        }
        return limits
    }
}
