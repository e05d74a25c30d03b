extension InspectorOverview {
    /// The figures of several streams together (the process overview's header): rates, counts,
    /// open findings, losses and totals add up; histories add up bucket by bucket, aligned at the
    /// newest; the slowest handler per bucket is the slowest of any stream. Viewers add up over the
    /// streams that said; nil when none did.
    public static func combined(_ parts: [InspectorOverview]) -> InspectorOverview {
        func sum(_ histories: [[UInt64]]) -> [UInt64] {
            merge(histories, +)
        }
        func merge(_ histories: [[UInt64]], _ combine: (UInt64, UInt64) -> UInt64) -> [UInt64] {
            let length = histories.map(\.count).max() ?? 0
            var result = [UInt64](repeating: 0, count: length)
            for history in histories {
                let offset = length - history.count
                for (index, value) in history.enumerated() {
                    result[offset + index] = combine(result[offset + index], value)
                }
            }
            return result
        }
        var open: [LeakSeverity: Int] = [:]
        var totals = InspectorTotals()
        var lost: UInt64 = 0
        var gaps: UInt64 = 0
        var viewers: Int?
        for part in parts {
            for (severity, count) in part.openFindings { open[severity, default: 0] += count }
            totals.add(part.totals)
            lost &+= part.eventsLost
            gaps &+= part.gaps
            if let count = part.viewers { viewers = (viewers ?? 0) + count }
        }
        return InspectorOverview(
            postsPerSecond: parts.reduce(0) { $0 + $1.postsPerSecond },
            deliveriesPerSecond: parts.reduce(0) { $0 + $1.deliveriesPerSecond },
            postHistory: sum(parts.map(\.postHistory)), deliveryHistory: sum(parts.map(\.deliveryHistory)),
            slowestHandlerHistory: merge(parts.map(\.slowestHandlerHistory), max),
            observerHistory: sum(parts.map(\.observerHistory)), nameHistory: sum(parts.map(\.nameHistory)),
            threadHistory: sum(parts.map(\.threadHistory)), findingHistory: sum(parts.map(\.findingHistory)),
            liveRegistrations: parts.reduce(0) { $0 + $1.liveRegistrations },
            names: parts.reduce(0) { $0 + $1.names }, threads: parts.reduce(0) { $0 + $1.threads },
            openFindings: open, eventsLost: lost, gaps: gaps, stream: .live, totals: totals,
            now: parts.map(\.now).max() ?? 0, detailLoss: DetailLoss(), viewers: viewers)
    }
}

extension InspectorTotals {
    mutating func add(_ other: InspectorTotals) {
        events &+= other.events
        posts &+= other.posts
        deliveries &+= other.deliveries
        registrations &+= other.registrations
        removals &+= other.removals
        tokenDrops &+= other.tokenDrops
        missedRemovals &+= other.missedRemovals
        queueActions &+= other.queueActions
        messageRegistrations &+= other.messageRegistrations
        messageEnqueues &+= other.messageEnqueues
        messagesDropped &+= other.messagesDropped
    }
}
