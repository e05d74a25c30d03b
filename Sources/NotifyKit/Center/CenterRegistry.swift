import NotifySystem

/// What learns of every center the process makes and ends: an inspector that streams them all.
package protocol CenterWatcher: AnyObject, Sendable {
    /// `center` was just made. Called under the registry's lock, as the center's initializer ends.
    func centerBegan(_ center: NotifyCenter)
    /// The center with serial `serial` ended; its probes have received the end of every
    /// registration it still had. Called under the registry's lock.
    func centerEnded(serial: UInt64)
}

/// Every center alive in the process, held weakly, and the watchers told when one begins or ends.
///
/// Only a center's creation and deinit take its lock: posting never reads it.
package enum CenterRegistry {
    private struct Entry {
        weak var center: NotifyCenter?
    }

    private struct State {
        /// By serial, so the order of creation.
        var centers: [UInt64: Entry] = [:]
        var watchers: [any CenterWatcher] = []
    }

    private static let state = LockedValue(State())

    static func began(_ center: NotifyCenter) {
        state.withLock { state in
            state.centers[center.serial] = Entry(center: center)
            for watcher in state.watchers { watcher.centerBegan(center) }
        }
    }

    static func ended(serial: UInt64) {
        state.withLock { state in
            state.centers[serial] = nil
            for watcher in state.watchers { watcher.centerEnded(serial: serial) }
        }
    }

    /// Adds `watcher` and returns the centers alive now, oldest first: no center is made between
    /// the two, so each is either returned or later told to the watcher.
    package static func watch(_ watcher: any CenterWatcher) -> [NotifyCenter] {
        state.withLock { state in
            state.watchers.append(watcher)
            return liveCenters(state)
        }
    }

    /// Stops telling `watcher` of centers.
    package static func unwatch(_ watcher: any CenterWatcher) {
        state.withLock { $0.watchers.removeAll { $0 === watcher } }
    }

    /// The centers alive now, oldest first.
    package static var centers: [NotifyCenter] {
        state.withLock { liveCenters($0) }
    }

    private static func liveCenters(_ state: State) -> [NotifyCenter] {
        state.centers.sorted { $0.key < $1.key }.compactMap(\.value.center)
    }
}

extension NotifyCenter {
    /// Ends every registration still live, for the probes attached: the center is going away.
    /// Called from deinit, when nothing else can reach the center.
    func endRegistrationsAtDeinit() {
        guard let probes else { return }
        let thread = ThreadContext.currentID
        let now = MonotonicClock.now()
        for (registration, _) in table.all {
            probes.emit(
                .removed(registration: registration.id, reason: .centerDeallocated, callsite: nil),
                timestamp: now, thread: thread)
        }
        for registration in messages.all {
            probes.emit(
                .removed(registration: registration.id, reason: .centerDeallocated, callsite: nil),
                timestamp: now, thread: thread)
        }
    }
}
