extension InspectorState {
    /// Moves stream time to `now` (monotonic nanoseconds, as in the trace): closes rate buckets,
    /// retires old removed registrations, and takes a checkpoint every
    /// ``LeakRuleConfiguration/checkpointInterval``.
    ///
    /// The caller drives it from event timestamps (live: the newest event's time or a monotonic
    /// reading mapped onto the trace clock; replay: the replayed events' times), so a replay ticks
    /// exactly like the live session did. A `now` older than the latest time seen changes nothing.
    public mutating func tick(now time: UInt64) {
        observe(time)
        postRate.advance(to: now)
        deliveryRate.advance(to: now)
        slowestHandlerWindow.advance(to: now)
        levelWindows.observers.recordLevel(UInt64(max(0, liveRegistrations)), at: now)
        levelWindows.names.recordLevel(UInt64(nameSlots.count), at: now)
        levelWindows.threads.recordLevel(UInt64(threadRows.count), at: now)
        levelWindows.findings.recordLevel(UInt64(openFindingCounts.values.reduce(0, +)), at: now)
        retireRemoved()
        if let next = ruleState.nextCheckpoint {
            if now >= next { checkpoint() }
        } else {
            ruleState.nextCheckpoint = now &+ configuration.rules.checkpointInterval
        }
    }

    /// Takes a checkpoint now (Instruments' "Mark Generation"): R6 samples every (name,
    /// callsite) count, R10 counts one more wait for names never posted, and R2 forgets stale gaps.
    ///
    /// ``tick(now:)`` takes one every ``LeakRuleConfiguration/checkpointInterval``; call this for
    /// an explicit mark, such as "screen closed", or before reading findings at report time.
    ///
    /// - Parameter time: Stream time of the mark; nil uses the latest time seen.
    /// - Complexity: O(live (name, callsite) pairs + names).
    public mutating func checkpoint(now time: UInt64? = nil) {
        if let time { observe(time) }
        ruleState.checkpoints += 1
        ruleState.nextCheckpoint = now &+ configuration.rules.checkpointInterval
        expireRemovalGaps()
        growthCheckpoint()
        neverPostedCheckpoint()
    }

    /// Checkpoints taken so far.
    public var checkpoints: UInt64 { ruleState.checkpoints }

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
