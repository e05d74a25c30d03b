import NotifySystem

extension NotifyCenter {
    /// Reports to the probes each registration whose object filter has deallocated (`objectDead`),
    /// once. A filter is held weakly and nothing tells the center when it dies: a probed post of
    /// the observed name finds it (and ends the registration), and so does this look, which an
    /// inspector makes periodically while a viewer is attached, so that a death is known to within
    /// that period. The look ends nothing: the registration ends, as before, at the next post of
    /// its name. Does nothing while no probe is attached.
    ///
    /// - Complexity: O(registrations filtering on an instance), under the center's lock.
    package func lookForDeadObjectFilters() {
        lock.withLock {
            guard let probes else { return }
            let now = MonotonicClock.now()
            let dead = table.instanceFiltered.values.filter(\.objectFilterDied).sorted { $0.id < $1.id }
            for registration in dead where reportedFilterDeaths.insert(registration.id).inserted {
                // On the thread that made the registration: the inspector's thread is not the app's.
                probes.emit(
                    .objectDead(registration: registration.id, aliveAt: objectFilterSeenAlive(registration)),
                    timestamp: now, thread: registration.registeringThread)
            }
            objectFiltersSeenAliveAt = now
        }
    }

    /// Reports `registration`'s dead object filter now, unless it was already reported. Must be
    /// called with `lock` held.
    func reportFoundFilterDeath(of registration: Registration, to probes: ProbeSet) {
        guard reportedFilterDeaths.insert(registration.id).inserted else { return }
        probes.emit(
            .objectDead(registration: registration.id, aliveAt: objectFilterSeenAlive(registration)),
            thread: registration.registeringThread)
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
