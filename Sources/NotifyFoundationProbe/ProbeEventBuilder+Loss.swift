package import NotifyWire

/// Lost lines: each is a gap, counted in the ``ProbeLineTally`` against the kernel's counts.
extension ProbeEventBuilder {
    /// Lines the kernel counted that never arrived, with no other loss to account for them.
    package static let linesLost: TraceGapReason = "probe-lines-lost"

    /// The lines no loss accounted for yet, by the kernel's last counts (bpftrace's exit map when
    /// it printed one): a gap ``linesLost``. Called once every line has been added.
    package mutating func reconcile(to events: inout [TraceEvent]) {
        let missing = tally.reconcileFinal()
        if missing > 0 { lose(missing, reason: Self.linesLost, to: &events) }
    }

    /// `count` lines were lost (bpftrace's buffer was full, notifytop skipped them, or the kernel
    /// counted more than arrived): a gap.
    package mutating func lose(_ count: UInt64, reason: TraceGapReason, to events: inout [TraceEvent]) {
        tally.report(count, explained: reason == Self.linesLost)
        events.append(.gap(TraceGap(seq: nextSeq(), timestamp: lastTime, count: count, reason: reason)))
        // Which starts and ends were lost is unknown: the running handlers and posts are
        // forgotten rather than paired wrongly (a handler then running is not reported).
        forgetUnderWay()
    }

    /// Forgets the posts, deliveries, adds and queue operations under way, counting the deliveries
    /// as unmatched: their other ends will not be paired.
    mutating func forgetUnderWay() {
        unmatched += running.values.reduce(0) { $0 + $1.count }
        running.removeAll()
        currentPost.removeAll()
        pendingAdds.removeAll()
        pendingQueues.removeAll()
        operations.removeAll()
    }
}
