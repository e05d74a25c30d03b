import NotifyTUI

extension DashboardSession {
    /// Moves a replay to `target`: forward by folding the events in between, backward by folding
    /// again from the start of the file.
    ///
    /// Events are folded in the same 200k batches, each followed by a tick, as a replay at full
    /// speed folds them, so a seek to `t` always leaves the same state as `--to t` would.
    func seek(_ feed: ReplayFeed, to target: ReplayFeed.Target) {
        if feed.isBehind(target) {
            do {
                try feed.rewind()
            } catch {
                status.message = "cannot step back: \(error)"
                return
            }
            resetFold()
        }
        while true {
            let batch = feed.take(until: target)
            if batch.isEmpty { break }
            ingestReplay(batch)
            replayTick(feed)
        }
        replayTick(feed)
    }
}
