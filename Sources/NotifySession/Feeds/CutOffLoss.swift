package import NotifyWire

/// What a stream the producer cut off for falling behind leaves to the stream that replaces it:
/// why it ended, and the events it lost, which the fresh fold goes on counting (this viewer never
/// saw them, though the new snapshot's figures hold them).
struct CutOffLoss: Sendable, Equatable {
    /// How the stream ended, as the screen says it.
    var text: String
    /// Every event the old stream lost.
    var lost: UInt64
    /// Of those, the ones lost by reading too slowly (its `viewer-behind` gaps).
    var lostBehind: UInt64

    /// Gap lines to fold first into the fresh model: what was lost by reading too slowly under
    /// the cut-off's name, the rest under its own.
    var carriedGaps: [TraceEvent] {
        [(lostBehind, TraceGapReason.cutOff), (lost - min(lost, lostBehind), .beforeReconnect)]
            .filter { $0.0 > 0 }
            .map { .gap(TraceGap(seq: 0, timestamp: 0, count: $0.0, reason: $0.1)) }
    }
}

extension TraceGapReason {
    /// Events a stream the producer cut off had lost by reading too slowly (its `viewer-behind`
    /// gaps), carried into the fold of the stream that replaced it. Never sent; a session
    /// synthesizes it.
    package static let cutOff: TraceGapReason = "cut-off"
    /// Events a stream the producer cut off had lost otherwise (its other gaps), carried likewise.
    package static let beforeReconnect: TraceGapReason = "before-reconnect"
}
