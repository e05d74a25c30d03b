import NotifySystem

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
    /// time, and lets go of the lock between slices: a post waits for one slice at most, however
    /// many registrations filter on an instance.
    ///
    /// - Complexity: O(registrations filtering on an instance) in all, O(``filterLookSlice``)
    ///   under the center's lock at a time.
    package func lookForDeadObjectFilters() {
        // Bounded even while the app adds registrations as fast as the look goes through them.
        var slicesLeft = lock.withLock { table.instanceFilteredEntries / Self.filterLookSlice + 2 }
        while slicesLeft > 0, !lookAtFilterSlice() {
            slicesLeft -= 1
            // A post waiting for the lock gets it before the next slice.
            sched_yield()
        }
    }

    /// Registrations a look goes through per holding of the lock.
    package static let filterLookSlice = 256

    /// Looks at the next slice of instance filters; returns true when the look has gone through
    /// them all (or no probe is attached).
    private func lookAtFilterSlice() -> Bool {
        lock.withLock {
            guard let probes else { return true }
            let now = MonotonicClock.now()
            if table.filterLookCursor == 0 { filterLookStartedAt = now }
            let finished = table.forEachFiltered(limit: Self.filterLookSlice) { registration in
                if registration.objectFilterDied { reportFoundFilterDeath(of: registration, to: probes, at: now) }
            }
            // Every filter the look found alive was alive when it began.
            if finished { objectFiltersSeenAliveAt = filterLookStartedAt }
            return finished
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
    func reportFilterDeath(of registration: Registration, endingFor reason: NotifyRemovalReason, to probes: ProbeSet) {
        let reported = !reportedFilterDeaths.isEmpty && reportedFilterDeaths.remove(registration.id) != nil
        guard reason == .objectDeallocated, !reported else { return }
        probes.emit(.objectDead(registration: registration.id, aliveAt: objectFilterSeenAlive(registration)))
    }
}
