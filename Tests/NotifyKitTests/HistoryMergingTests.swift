@testable import NotifyKit
import Testing

/// Several centers streamed together send one history: the process's, summed over them.
@Suite struct HistoryMergingTests {
    static let site = ProbeEvent.Callsite(file: #fileID, line: 3)
    static let otherSite = ProbeEvent.Callsite(file: #fileID, line: 4)

    static func history(
        since: UInt64, counts: [NotifyHistory.Key: HistoryCounts], checkpoints: [UInt64],
        sites: [NotifyHistory.SiteCount]
    ) -> NotifyHistory {
        NotifyHistory(
            since: since, counts: counts,
            checkpoints: checkpoints.map {
                NotifyHistory.Checkpoint(label: "at \($0)", callsite: site, thread: 1, timestamp: $0, watched: false)
            },
            siteCounts: sites, exitedThreads: [:])
    }

    @Test("counts add per thread and name, the earliest start wins, checkpoints interleave by time")
    func countsAndCheckpoints() {
        let key = NotifyHistory.Key(thread: 1, name: "ping")
        let onlyB = NotifyHistory.Key(thread: 2, name: "pong")
        let a = Self.history(
            since: 50, counts: [key: HistoryCounts(posts: 3, deliveries: 2, unheard: 1)], checkpoints: [10, 30],
            sites: [])
        let b = Self.history(
            since: 20, counts: [key: HistoryCounts(posts: 4, deliveries: 1), onlyB: HistoryCounts(posts: 1)],
            checkpoints: [20], sites: [])
        let merged = NotifyHistory.merging([a, b])
        #expect(merged.since == 20)
        #expect(merged.counts[key] == HistoryCounts(posts: 7, deliveries: 3, unheard: 1))
        #expect(merged.counts[onlyB] == HistoryCounts(posts: 1))
        #expect(merged.checkpoints.map(\.timestamp) == [20, 30])  // as many as one center keeps: 2
    }

    @Test("a site both centers have sums their live counts over time; others are kept as they are")
    func siteCounts() {
        let shared = NotifyHistory.SiteCount(name: "ping", callsite: Self.site, changes: [(10, 1), (30, 2)])
        let sharedToo = NotifyHistory.SiteCount(name: "ping", callsite: Self.site, changes: [(20, 5), (30, 4)])
        let alone = NotifyHistory.SiteCount(name: "pong", callsite: Self.otherSite, changes: [(15, 1)])
        let merged = NotifyHistory.merging([
            Self.history(since: 0, counts: [:], checkpoints: [], sites: [shared]),
            Self.history(since: 0, counts: [:], checkpoints: [], sites: [sharedToo, alone]),
        ])
        let summed = merged.siteCounts.first { $0.callsite == Self.site }
        #expect(summed?.changes.map(\.timestamp) == [10, 20, 30])
        #expect(summed?.changes.map(\.live) == [1, 6, 6])
        #expect(merged.siteCounts.contains(alone))
        #expect(merged.siteCounts.count == 2)
    }

    @Test("one history is returned as it is")
    func one() {
        let only = Self.history(
            since: 7, counts: [NotifyHistory.Key(thread: 1, name: nil): HistoryCounts(posts: 1)], checkpoints: [1],
            sites: [])
        let merged = NotifyHistory.merging([only])
        #expect(merged.since == 7 && merged.counts == only.counts && merged.checkpoints == only.checkpoints)
    }
}
