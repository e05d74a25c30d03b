import NotifyTUI

extension DashboardSession {
    /// Moves a replay to `target`: forward by folding the events in between, backward by folding
    /// again from the start of the file.
    ///
    /// The model's clock is the events', so however the events are batched, a seek to `t` leaves
    /// the same state as `--to t` would.
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
            ingest(batch)
            replayTick(feed)
        }
        replayTick(feed)
    }

    /// `g`: goes to `time` after the recording's start, saying so when that is before `--from`
    /// or past the recording's end instead of silently stopping short.
    func goTo(_ time: UInt64, in feed: ReplayFeed) {
        let target = max(time, feed.from)
        seek(feed, to: .time(target))
        if target > time {
            status.message = "went to --from (@\(Format.streamTime(target))s), the replay's start"
        } else if let end = feed.endPosition, time > end {
            status.message =
                "@\(Format.streamTime(time))s is past the recording's end: went to its last event "
                + "(@\(Format.streamTime(end))s)"
        } else if let to = feed.to, time > to {
            status.message = "@\(Format.streamTime(time))s is past --to: went to --to (@\(Format.streamTime(to))s)"
        }
    }
}
