import NotifyWire

/// What a snapshot tells a late viewer of the time before its stream (format 1.4): the work done
/// then (`history`, added up into the tables' totals, never into rates or timings), the app's
/// checkpoints then, and the live counts of its registration sites.
///
/// Every post and delivery counts once, as an event or inside one history line, so the totals
/// equal those of a viewer attached from the start. Rules judge the history as far as it tells:
/// R10 sees names posted before, R9 unheard posts, R8 posts on and off the main thread, and at
/// the stream's first checkpoint R6 and R10 catch up with the checkpoints that passed before it.
extension InspectorState {
    mutating func applyHistory(_ history: TraceHistory) {
        guard history.posts > 0 || history.deliveries > 0 else { return }
        if history.recent {
            // Work counted in place of events: it happened now, as the events would have.
            observe(history.timestamp)
            postRate.record(count: history.posts, at: history.timestamp)
            deliveryRate.record(count: history.deliveries, at: history.timestamp)
        } else {
            beganLate = true
        }
        if let registration = history.registration, let slot = registrationSlots[registration] {
            rows[slot].deliveries &+= history.deliveries
            if history.deliveries > 0 {
                rows[slot].lastDeliveryAt = max(rows[slot].lastDeliveryAt ?? 0, history.timestamp)
                rows[slot].lastDeliveringThread = history.thread
            }
        }
        totals.posts &+= history.posts
        totals.deliveries &+= history.deliveries
        let threadSlot = threadSlot(for: history.thread)
        threadRows[threadSlot].posts &+= history.posts
        threadRows[threadSlot].deliveries &+= history.deliveries
        markActive(threadSlot)
        nameRows[0].posts &+= history.posts
        wildcardAudiblePosts &+= history.posts
        guard let name = history.name else {
            totals.otherNamePosts &+= history.posts
            totals.otherNameDeliveries &+= history.deliveries
            return
        }
        let slot = nameSlot(for: name)
        let wasPosted = nameRows[slot].posts > 0
        nameRows[slot].posts &+= history.posts
        nameRows[slot].deliveries &+= history.deliveries
        let unheard = min(history.unheard, history.posts)
        if unheard > 0, nameRows[slot].postsWithNoObserver == 0, !nameRows[slot].everRegistered {
            fileUnheardName(slot)
        }
        nameRows[slot].postsWithNoObserver &+= unheard
        nameRows[slot].lastUsed = max(nameRows[slot].lastUsed, now)
        if history.deliveries > 0 { nameRows[slot].handlingThreads.insert(history.thread) }
        guard history.posts > 0 else { return }
        nameRows[slot].postingThreads.insert(history.thread)
        nameRows[slot].postedCenters.markUnknown()
        if !wasPosted { neverPostedFirstPost(slot) }
        let onMain = threadRows[threadSlot].isMain
        if onMain ? !nameRows[slot].postedOnMain : !nameRows[slot].postedOffMain {
            mixedThreadInHistory(nameSlot: slot, onMain: onMain)
        }
        if history.unheard > 0 {
            unheardInHistory(name, nameSlot: slot, count: min(history.unheard, history.posts), thread: history.thread)
        }
    }

    /// The most changes kept per (name, callsite) pair, as the app keeps them.
    static let siteChangesKept = 16

    mutating func rememberSiteCount(_ count: TraceSiteCount) {
        let key = SiteKey(nameSlot: count.name.map { nameSlot(for: $0) } ?? 0, callsite: count.callsite)
        guard
            ruleState.pastSiteCounts[key] != nil
                || ruleState.pastSiteCounts.count < configuration.maximumLiveRegistrations
        else {
            loss.untrackedRegistrations &+= 1
            return
        }
        var changes = ruleState.pastSiteCounts[key] ?? []
        changes.append(SiteChange(at: count.timestamp, live: Int(clamping: count.live)))
        if changes.count > Self.siteChangesKept { changes.removeFirst(changes.count - Self.siteChangesKept) }
        ruleState.pastSiteCounts[key] = changes
        ruleState.pastPending = true
    }

    /// The most explicit checkpoints before the stream kept, as the app keeps them.
    static let pastCheckpointsKept = 64

    mutating func rememberPastCheckpoint(at time: UInt64) {
        ruleState.pastCheckpoints.append(time)
        if ruleState.pastCheckpoints.count > Self.pastCheckpointsKept { ruleState.pastCheckpoints.removeFirst() }
        ruleState.pastPending = true
    }

    /// Checkpoints a viewer from the start would have taken in `[start, end)` before this stream:
    /// the grid's points after the producer's `since` and before the stream's first grid point,
    /// and the app's explicit ones.
    func pastCheckpoints(from start: UInt64, to end: UInt64) -> Int {
        guard start < end else { return 0 }
        let interval = max(1, configuration.rules.checkpointInterval)
        let since = header?.since ?? 0
        let gridStart = max(start, since == .max ? since : since + 1)
        let gridEnd = min(end, ruleState.firstGridCheckpoint ?? now)
        // Multiples of the interval in [gridStart, gridEnd).
        var grid = 0
        if gridStart < gridEnd {
            let below = { (time: UInt64) -> UInt64 in time == 0 ? 0 : (time - 1) / interval + 1 }
            grid = Int(clamping: below(gridEnd) - below(gridStart))
        }
        return grid + ruleState.pastCheckpoints.count { $0 >= start && $0 < end }
    }

    /// Runs once, at the first checkpoint after a snapshot told of the time before the stream.
    mutating func catchUpPastCheckpoints() {
        ruleState.pastPending = false
        mixedThreadCatchUp()
        // Only a producer that keeps history says since when; without it the names' posts before
        // the stream are unknown, so the checkpoints before it cannot be judged.
        if header?.since != nil {
            growthCatchUp()
            neverPostedCatchUp()
        }
        ruleState.pastSiteCounts = [:]
        ruleState.pastCheckpoints = []
    }
}
