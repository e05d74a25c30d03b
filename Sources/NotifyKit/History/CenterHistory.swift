import Foundation
import NotifySystem
import Synchronization

/// What a center keeps of its history whether or not a probe watches: each name's counter index,
/// every thread's unwatched counters (``HistoryCounters``) and the totals of exited threads. The
/// latest explicit checkpoints are the center's own (``CheckpointRing``), kept under its lock.
///
/// Its lock is taken after the center's, never before.
final class CenterHistory: @unchecked Sendable {  // `state` is locked
    /// Names given a counter index; posts of further names count under index 0, no name.
    static let nameCapacity = HistoryCounters.capacity - 1

    /// ``MonotonicClock`` nanoseconds when the center was made.
    let since = MonotonicClock.now()
    private let center: UInt64

    private struct State {
        /// Index 0 stands for every name beyond the capacity.
        var names: [String?] = [nil]
        var nameIndex: [Notification.Name: UInt32] = [:]
        var messageIndex: [ObjectIdentifier: UInt32] = [:]
        var threads: [HistoryCounters] = []
        /// Counts of exited threads, by thread id and name index, and those threads.
        var retired: [UInt64: [UInt32: HistoryCounts]] = [:]
        var retiredThreads: [UInt64: NotifyThread] = [:]
    }
    private let state = LockedValue(State())

    init(center: UInt64) {
        self.center = center
    }

    deinit {
        state.withLock { state in
            for counters in state.threads { counters.abandoned.store(true, ordering: .releasing) }
        }
    }

    /// The counter index of `name`, given one on first use.
    func counterIndex(for name: Notification.Name) -> UInt32 {
        state.withLock { state in
            if let index = state.nameIndex[name] { return index }
            guard let index = Self.newIndex(&state, named: name.rawValue) else { return 0 }
            state.nameIndex[name] = index
            return index
        }
    }

    /// The counter index of a typed message type, given one on first use.
    func counterIndex(forMessage type: any Any.Type) -> UInt32 {
        let key = ObjectIdentifier(type)
        return state.withLock { state in
            if let index = state.messageIndex[key] { return index }
            guard let index = Self.newIndex(&state, named: TypeNames.name(of: type)) else { return 0 }
            state.messageIndex[key] = index
            return index
        }
    }

    private static func newIndex(_ state: inout State, named name: String) -> UInt32? {
        guard state.names.count <= nameCapacity else { return nil }
        state.names.append(name)
        return UInt32(state.names.count - 1)
    }

    /// Counters for a thread that starts counting for this center.
    func makeCounters(thread: UInt64) -> HistoryCounters {
        let counters = HistoryCounters(thread: thread, center: center)
        state.withLock { state in
            Self.retireExited(&state)
            state.threads.append(counters)
        }
        return counters
    }

    /// Folds the counts of exited threads into the retired totals and lets their counters go.
    private static func retireExited(_ state: inout State) {
        guard state.threads.contains(where: { $0.closed.load(ordering: .acquiring) }) else { return }
        state.threads.removeAll { counters in
            guard counters.closed.load(ordering: .acquiring) else { return false }
            if let thread = counters.threadAtStart { state.retiredThreads[thread.id] = thread }
            counters.forEachCount { index, counts in
                state.retired[counters.thread, default: [:]][index, default: HistoryCounts()] += counts
            }
            return true
        }
    }

    /// Every count so far, by thread and name, and the threads that exited.
    func read() -> (counts: [NotifyHistory.Key: HistoryCounts], exitedThreads: [UInt64: NotifyThread]) {
        state.withLock { state in
            Self.retireExited(&state)
            var counts: [NotifyHistory.Key: HistoryCounts] = [:]
            let names = state.names
            for (thread, byIndex) in state.retired {
                for (index, total) in byIndex {
                    counts[NotifyHistory.Key(thread: thread, name: names[Int(index)]), default: HistoryCounts()] +=
                        total
                }
            }
            for counters in state.threads {
                counters.forEachCount { index, total in
                    let name = Int(index) < names.count ? names[Int(index)] : nil
                    counts[NotifyHistory.Key(thread: counters.thread, name: name), default: HistoryCounts()] += total
                }
            }
            return (counts, state.retiredThreads)
        }
    }
}

extension NotifyCenter {
    /// Whether unwatched posts are counted; the post benchmark turns it off to measure what the
    /// counting costs. Nothing else may change it.
    package var countsUnwatched: Bool {
        get { countingUnwatched.load(ordering: .relaxed) }
        set { countingUnwatched.store(newValue, ordering: .relaxed) }
    }

    /// Whether registrations and removals are logged per site and unwatched checkpoints are
    /// remembered; the benchmark turns it off to measure what that costs. Nothing else may change it.
    package var keepsHistory: Bool {
        get { lock.withLock { table.keepsHistory } }
        set { lock.withLock { table.keepsHistory = newValue } }
    }

    /// What this center kept of its history: unwatched counts by thread and name (exited threads
    /// included), the latest checkpoints, and the growth history of each (name, callsite) pair
    /// with a live registration.
    ///
    /// A post that found no probe attached counts here, even when it ends after a probe attached;
    /// a post that found one sends events instead. So the counts read after attaching, plus the
    /// later readings' growth, plus the events, count every post and delivery once.
    package func history() -> NotifyHistory {
        let (siteCounts, checkpoints) = lock.withLock { (table.sites.live, rememberedCheckpoints.remembered) }
        let (counts, exited) = recordedHistory.read()
        return NotifyHistory(
            since: recordedHistory.since, counts: counts, checkpoints: checkpoints, siteCounts: siteCounts,
            exitedThreads: exited)
    }

    /// ``MonotonicClock`` nanoseconds when this center began keeping history: its creation.
    package var historySince: UInt64 { recordedHistory.since }
}
