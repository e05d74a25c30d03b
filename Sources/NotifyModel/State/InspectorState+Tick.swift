extension InspectorState {
    /// Moves stream time to `now` (monotonic nanoseconds, as in the trace) as an event at that
    /// time would, without folding anything: closes rate buckets, retires old removed
    /// registrations, and takes the checkpoints due.
    ///
    /// ``apply(_:)-(TraceEvent)`` already does this from every event's timestamp, so callers need not tick; a
    /// tick changes the state only as the next event would have anyway, so folding is identical
    /// whatever ticks are interleaved, as long as none runs ahead of a later event. A `now`
    /// older than the latest time seen changes nothing.
    public mutating func tick(now time: UInt64) {
        observe(time)
    }

    /// Takes a checkpoint now (Instruments' "Mark Generation"): R6 samples every (name,
    /// callsite) count, R10 counts one more wait for names never posted, and R2 forgets stale gaps.
    ///
    /// Stream time takes one at every multiple of ``LeakRuleConfiguration/checkpointInterval``;
    /// call this for an explicit mark, such as "screen closed", or before reading findings at
    /// report time. An explicit mark does not move that grid.
    ///
    /// - Parameter time: Stream time of the mark; nil uses the latest time seen.
    /// - Complexity: O(live (name, callsite) pairs + names).
    public mutating func checkpoint(now time: UInt64? = nil) {
        if let time { observe(time) }
        takeCheckpoint()
    }

    /// Checkpoints taken so far.
    public var checkpoints: UInt64 { ruleState.checkpoints }

    private mutating func takeCheckpoint() {
        if ruleState.pastPending { catchUpPastCheckpoints() }
        ruleState.checkpoints += 1
        expireRemovalGaps()
        growthCheckpoint()
        neverPostedCheckpoint()
        otherCenterCheckpoint()
    }

    /// The most grid checkpoints one jump of the clock takes; a longer silence (or a corrupt
    /// timestamp) skips the rest, the same way for every reader of the trace.
    static let checkpointsPerJump = 10_000

    /// Runs the clock work due up to `time` on a fixed grid of stream time: at each multiple of
    /// the rate bucket width the level windows sample the state, rates close their buckets and old
    /// removed registrations retire; at each multiple of the checkpoint interval a checkpoint is
    /// taken, at that grid time. Called before the event at `time` is folded.
    mutating func advanceClock(to time: UInt64) {
        let interval = max(1, configuration.rules.checkpointInterval)
        guard var nextCheckpoint = ruleState.nextCheckpoint else {
            closeBuckets(at: time)
            ruleState.nextCheckpoint = Self.gridPoint(after: time, step: interval)
            ruleState.firstGridCheckpoint = ruleState.nextCheckpoint
            nextClockWork = min(nextBucket, ruleState.nextCheckpoint!)
            return
        }
        var taken = 0
        while nextCheckpoint <= time && nextCheckpoint < .max {
            closeBuckets(at: nextCheckpoint)
            now = max(now, nextCheckpoint)
            takeCheckpoint()
            taken += 1
            nextCheckpoint =
                taken < Self.checkpointsPerJump
                ? Self.gridPoint(after: nextCheckpoint, step: interval) : Self.gridPoint(after: time, step: interval)
        }
        ruleState.nextCheckpoint = nextCheckpoint
        closeBuckets(at: time)
        nextClockWork = min(nextBucket, nextCheckpoint)
    }

    /// Closes the rate buckets that end at or before `time`, the level windows keeping the levels
    /// the state had when each closed, and retires what is old enough at `time`.
    private mutating func closeBuckets(at time: UInt64) {
        guard time >= nextBucket else { return }
        if nextBucket > 0 {
            levelWindows.observers.recordLevel(UInt64(max(0, liveRegistrations)), at: now)
            levelWindows.names.recordLevel(UInt64(nameSlots.count), at: now)
            levelWindows.threads.recordLevel(UInt64(activeThreads), at: now)
            levelWindows.findings.recordLevel(UInt64(openFindingCounts.values.reduce(0, +)), at: now)
        }
        postRate.advance(to: time)
        deliveryRate.advance(to: time)
        slowestHandlerWindow.advance(to: time)
        levelWindows.observers.advance(to: time, filling: levelWindows.observers.current)
        levelWindows.names.advance(to: time, filling: levelWindows.names.current)
        levelWindows.threads.advance(to: time, filling: levelWindows.threads.current)
        levelWindows.findings.advance(to: time, filling: levelWindows.findings.current)
        now = max(now, time)
        retireRemoved()
        nextBucket = Self.gridPoint(after: time, step: max(1, configuration.rateBucketWidth))
    }

    /// The first multiple of `step` after `time`; `.max` (never reached) past the clock's range.
    static func gridPoint(after time: UInt64, step: UInt64) -> UInt64 {
        let (next, overflow) = (time - time % step).addingReportingOverflow(step)
        return overflow ? .max : next
    }

    /// Whether a finding for `rule` may be raised about this callsite, name or owner type.
    func allows(
        _ rule: LeakRule, callsite: CallsiteInfo? = nil, name: String? = nil, ownerType: String? = nil
    ) -> Bool {
        let rules = configuration.rules
        guard rules.runs(rule) else { return false }
        for suppression in rules.suppressions {
            switch suppression {
            case .callsite(let suppressed, let file, let line):
                if suppressed == rule, let callsite, callsite.file == file, callsite.line == line { return false }
            case .name(let suppressed, let suppressedName):
                if suppressed == rule, name == suppressedName { return false }
            case .immortalType(let type):
                if rule == .selfRetainingHandler, ownerType == type { return false }
            }
        }
        return true
    }
}
