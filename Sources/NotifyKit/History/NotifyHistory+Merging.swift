extension NotifyHistory {
    /// The history of several centers as one process's: counts added per thread and name, the
    /// checkpoints of all in time order (as many as one center keeps), and each site's live
    /// registrations summed over the centers that have it. One history is returned as it is.
    package static func merging(_ histories: [NotifyHistory]) -> NotifyHistory {
        guard var merged = histories.first else {
            return NotifyHistory(since: 0, counts: [:], checkpoints: [], siteCounts: [], exitedThreads: [:])
        }
        guard histories.count > 1 else { return merged }
        let keptCheckpoints = histories.map(\.checkpoints.count).max() ?? 0
        for other in histories.dropFirst() {
            merged.since = min(merged.since, other.since)
            for (key, counts) in other.counts { merged.counts[key, default: HistoryCounts()] += counts }
            merged.checkpoints += other.checkpoints
            merged.exitedThreads.merge(other.exitedThreads) { first, _ in first }
            for site in other.siteCounts {
                if let index = merged.siteCounts.firstIndex(where: {
                    $0.name == site.name && $0.callsite == site.callsite
                }) {
                    merged.siteCounts[index].changes = Self.summed(merged.siteCounts[index].changes, site.changes)
                } else {
                    merged.siteCounts.append(site)
                }
            }
        }
        merged.checkpoints = Array(merged.checkpoints.sorted { $0.timestamp < $1.timestamp }.suffix(keptCheckpoints))
        return merged
    }

    /// Two series of live counts as one: at each change of either, the sum of both's latest.
    private static func summed(
        _ first: [(timestamp: UInt64, live: Int)], _ second: [(timestamp: UInt64, live: Int)]
    ) -> [(timestamp: UInt64, live: Int)] {
        var result: [(timestamp: UInt64, live: Int)] = []
        var (i, j, a, b) = (0, 0, 0, 0)
        while i < first.count || j < second.count {
            let takeFirst = j == second.count || (i < first.count && first[i].timestamp <= second[j].timestamp)
            let timestamp: UInt64
            if takeFirst {
                (timestamp, a) = (first[i].timestamp, first[i].live)
                i += 1
            } else {
                (timestamp, b) = (second[j].timestamp, second[j].live)
                j += 1
            }
            if let last = result.last, last.timestamp == timestamp {
                result[result.count - 1].live = a + b
            } else {
                result.append((timestamp, a + b))
            }
        }
        return result
    }
}
