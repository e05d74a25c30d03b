import NotifySystem
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension NotifyCenter {
    /// Reports to the probes each registration whose object filter has deallocated (`objectDead`),
    /// once. A filter is held weakly and nothing tells the center when it dies: a probed post of
    /// the observed name finds it (and ends the registration), and so does this look, which an
    /// inspector makes periodically while a viewer is attached, so that a death is known to within
    /// that period. The look ends nothing: the registration ends, as before, at the next post of
    /// its name. Does nothing while no probe is attached.
    ///
    /// The look goes through the registrations in registration order, ``filterLookSlice`` at a
    /// time. Under the center's lock it only takes the slice's references; it loads the weak
    /// filters with the lock let go, and takes the lock again only to report the dead ones. A post
    /// waits for one slice's copy at most, however many registrations filter on an instance, and
    /// gets the lock between slices (the lock is not fair: a look that held it for the loads too
    /// took it back before a woken post could run, for the whole look).
    ///
    /// - Complexity: O(registrations filtering on an instance) in all, O(``filterLookSlice``)
    ///   reference copies under the center's lock at a time.
    package func lookForDeadObjectFilters() {
        var slice: [Registration] = []
        slice.reserveCapacity(Self.filterLookSlice)
        // Bounded even while the app adds registrations as fast as the look goes through them.
        var slicesLeft = lock.withLock { table.instanceFilteredEntries / Self.filterLookSlice + 2 }
        while slicesLeft > 0 {
            slicesLeft -= 1
            slice.removeAll(keepingCapacity: true)
            guard let (finished, startedAt) = takeFilterSlice(into: &slice) else { return }
            let dead = slice.filter(\.objectFilterDied)
            let checkedAt = MonotonicClock.now()
            if !dead.isEmpty || finished {
                lock.withLock {
                    guard let probes else { return }
                    // One that ended since its copy was reported, if dead, as it ended.
                    for registration in dead where registration.isActive.load(ordering: .relaxed) {
                        reportFoundFilterDeath(of: registration, to: probes, at: checkedAt)
                    }
                    // Every filter the look found alive was alive when it began.
                    if finished { objectFiltersSeenAliveAt = max(objectFiltersSeenAliveAt, startedAt) }
                }
            }
            if finished { return }
            // A post waiting for the lock gets it before the next slice.
            sched_yield()
        }
    }

    /// Registrations a look goes through per holding of the lock.
    package static let filterLookSlice = 256

    /// Appends the next slice of instance-filtered registrations to `slice`; returns whether the
    /// look has gone through them all and when it began, or nil when no probe is attached.
    private func takeFilterSlice(into slice: inout [Registration]) -> (finished: Bool, startedAt: UInt64)? {
        lock.withLock {
            guard probes != nil else { return nil }
            if table.filterLookCursor == 0 { filterLookStartedAt = MonotonicClock.now() }
            let finished = table.forEachFiltered(limit: Self.filterLookSlice) { slice.append($0) }
            return (finished, filterLookStartedAt)
        }
    }

    /// Reports `registration`'s dead object filter, found at `time`, unless it was already
    /// reported; on the thread that made the registration (the inspector's thread is not the
    /// app's). Must be called with `lock` held.
    func reportFoundFilterDeath(
        of registration: Registration, to probes: ProbeSet, at time: UInt64 = MonotonicClock.now()
    ) {
        guard reportedFilterDeaths.insert(registration.id).inserted else { return }
        probes.emit(
            .objectDead(registration: registration.id, aliveAt: objectFilterSeenAlive(registration)),
            timestamp: time, thread: registration.registeringThread)
    }

    /// The last time the center knew `registration`'s object filter alive: when the app made the
    /// registration, or the last look that found every filter alive. Must be called with `lock` held.
    func objectFilterSeenAlive(_ registration: Registration) -> UInt64 {
        max(registration.registeredAt, objectFiltersSeenAliveAt)
    }

    /// Reports `registration`'s dead object filter as it ends, unless a look already did; forgets
    /// the look's report of a registration that ends. Must be called with `lock` held.
    func reportFilterDeath(
        of registration: Registration, endingFor reason: ProbeEvent.RemovalReason, to probes: ProbeSet
    ) {
        let reported = !reportedFilterDeaths.isEmpty && reportedFilterDeaths.remove(registration.id) != nil
        guard reason == .objectDeallocated, !reported else { return }
        probes.emit(.objectDead(registration: registration.id, aliveAt: objectFilterSeenAlive(registration)))
    }
}
