extension NotifyCenter {
    /// Ends the registrations whose object filter has deallocated, reporting each death to the
    /// probes (`objectDead`, then `removed`). A filter is held weakly and nothing tells the center
    /// when it dies: a probed post of the observed name finds it, and so does this look, which an
    /// inspector makes periodically while a viewer is attached, so that a death is known to within
    /// that period. Does nothing while no probe is attached.
    ///
    /// - Complexity: O(registrations), under the center's lock.
    package func lookForDeadObjectFilters() {
        locked {
            guard probes != nil else { return }
            let now = MonotonicClock.now()
            var dead: [Registration] = []
            for registration in table.wildcard.entries where registration.objectFilterDied {
                dead.append(registration)
            }
            for bucket in table.buckets {
                for registration in bucket.entries where registration.objectFilterDied { dead.append(registration) }
            }
            // Reported on the thread that made the registration: the inspector's thread is not the app's.
            for registration in dead {
                end(
                    registration, reason: .objectDeallocated, callsite: nil,
                    reportedOn: registration.registeringThread)
            }
            objectFiltersSeenAliveAt = now
        }
    }

    /// The last time the center knew `registration`'s object filter alive: when the app made the
    /// registration, or the last look that found every filter alive. Must be called with `lock` held.
    func objectFilterSeenAlive(_ registration: Registration) -> UInt64 {
        max(registration.registeredAt, objectFiltersSeenAliveAt)
    }
}
