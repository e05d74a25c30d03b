import NotifyKit
import NotifyWire

/// What a viewer attaching now receives of the time before it: the center's unwatched counts (as
/// the viewers already attached last received them) plus what the exporter drained while probed,
/// the latest checkpoints no event of this stream will carry, and each site's growth.
struct ViewerHistory {
    var counts: [NotifyHistory.Key: HistoryCounts]
    var exitedThreads: [UInt64: NotifyThread]
    var checkpoints: [NotifyHistory.Checkpoint]
    var siteCounts: [NotifyHistory.SiteCount]

    /// - Parameters:
    ///   - unwatched: The center's unwatched counts as sent to the viewers attached now.
    ///   - history: The center's latest reading, for its checkpoints, sites and exited threads.
    init(unwatched: [NotifyHistory.Key: HistoryCounts], history: NotifyHistory, totals: WatchedTotals) {
        var counts = unwatched
        for (key, watched) in totals.counts { counts[key, default: HistoryCounts()] += watched }
        self.counts = counts
        exitedThreads = history.exitedThreads
        // Watched checkpoints are the ones drained; those still in the ring come as events.
        let merged = history.checkpoints.filter { !$0.watched } + totals.checkpoints
        checkpoints = Array(merged.sorted { $0.timestamp < $1.timestamp }.suffix(CenterHistoryLimits.checkpoints))
        siteCounts = history.siteCounts
    }

    /// The pairs with a count, threads then names in order, so lines come out the same each time.
    var orderedCounts: [(key: NotifyHistory.Key, counts: HistoryCounts)] {
        counts.filter { !$0.value.isZero }.map { ($0.key, $0.value) }.sorted {
            ($0.key.thread, $0.key.name ?? "") < ($1.key.thread, $1.key.name ?? "")
        }
    }
}

enum CenterHistoryLimits {
    /// The checkpoints a snapshot carries, as many as a center remembers.
    static let checkpoints = 64
}

extension ProbeEventConverter {
    /// Introduces what history lines refer to (threads, callsites) into `lines`, which the viewers
    /// already attached must receive too.
    mutating func introduce(_ history: ViewerHistory, at timestamp: UInt64, into lines: inout [TraceEvent]) {
        for (key, _) in history.orderedCounts {
            _ = introduceThread(key.thread, at: timestamp, known: history.exitedThreads[key.thread], into: &lines)
        }
        for checkpoint in history.checkpoints {
            _ = introduceThread(
                checkpoint.thread, at: timestamp, known: history.exitedThreads[checkpoint.thread], into: &lines)
            _ = introduce(checkpoint.callsite, into: &lines)
        }
        for site in history.siteCounts { _ = introduce(site.callsite, into: &lines) }
    }

    /// The history lines, each site's counts, then the checkpoints (oldest first, numbered by
    /// `number`, or by new numbers when it is nil), all introduced by ``introduce(_:at:into:)`` before.
    mutating func historyLines(_ history: ViewerHistory, at timestamp: UInt64, number: (() -> UInt64)? = nil)
        -> [TraceEvent]
    {
        var ignored: [TraceEvent] = []
        var lines: [TraceEvent] = []
        for (key, counts) in history.orderedCounts {
            lines.append(
                .history(
                    TraceHistory(
                        timestamp: timestamp, thread: key.thread, name: key.name, posts: counts.posts,
                        deliveries: counts.deliveries, unheard: counts.unheard)))
        }
        for site in history.siteCounts {
            let callsite = introduce(site.callsite, into: &ignored)
            for change in site.changes {
                lines.append(
                    .siteCount(
                        TraceSiteCount(
                            timestamp: change.timestamp, name: site.name, callsite: callsite,
                            live: UInt64(max(0, change.live)))))
            }
        }
        for checkpoint in history.checkpoints {
            let callsite = introduce(checkpoint.callsite, into: &ignored)
            lines.append(
                .checkpoint(
                    TraceCheckpoint(
                        seq: number?() ?? nextSequence(), timestamp: checkpoint.timestamp, thread: checkpoint.thread,
                        label: checkpoint.label, callsite: callsite, preexisting: true)))
        }
        return lines
    }
}
