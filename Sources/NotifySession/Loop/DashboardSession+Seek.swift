import NotifyTUI

/// A replay's seek under way. A seek back folds the recording again from its start, which in a
/// large recording takes seconds: the run loop folds it a slice per pass, so the screen shows how
/// far it has got and keys are still answered (Esc stops it where it is, q quits).
struct PendingSeek {
    /// Where it goes.
    let target: ReplayFeed.Target
    /// The time `g` asked for, when it was `g`: the message at the end says where it went.
    let requested: UInt64?
    /// Whether it folds again from the start.
    let backward: Bool
    /// The target's measure (clock position or timed events) when the fold began.
    let origin: UInt64
}

extension DashboardSession {
    /// Whether a seek is under way.
    package var isSeeking: Bool { pendingSeek != nil }

    /// Moves a replay to `target`: forward by folding the events in between, backward by folding
    /// again from the start of the file. The first slice is folded at once; the run loop folds the
    /// rest (``continueSeek(_:)``).
    ///
    /// The model's clock is the events', so however the events are batched, a seek to `t` leaves
    /// the same state as `--to t` would.
    func seek(_ feed: ReplayFeed, to target: ReplayFeed.Target, requested: UInt64? = nil) {
        let backward = feed.isBehind(target)
        if backward {
            do {
                try feed.rewind()
            } catch {
                status.message = "cannot step back: \(error)"
                return
            }
            resetFold()
        }
        pendingSeek = PendingSeek(
            target: target, requested: requested, backward: backward, origin: Self.measure(feed, toward: target))
        continueSeek(feed)
    }

    /// Folds the next slice of the seek under way (``seekChunk`` events at a time, for at most
    /// ``seekPassNanoseconds``); ends the seek when the target is reached.
    func continueSeek(_ feed: ReplayFeed) {
        guard let seek = pendingSeek else { return }
        let deadline = CPUMeter.wallNanoseconds() + seekPassNanoseconds
        repeat {
            let batch = feed.take(until: seek.target, limit: seekChunk)
            ingest(batch)
            if batch.count < seekChunk {
                finishSeek(seek, in: feed)
                return
            }
        } while CPUMeter.wallNanoseconds() < deadline
        replayTick(feed)
        status.progress = Self.progressText(seek, feed: feed)
    }

    /// Esc during a seek: stays where the fold has got to, a consistent state of the recording.
    func stopSeek(_ feed: ReplayFeed) {
        guard let seek = pendingSeek else { return }
        pendingSeek = nil
        status.progress = nil
        replayTick(feed)
        status.message =
            "stopped \(Self.goalText(seek)) at @\(Format.streamTime(feed.position))s (g goes to a time)"
    }

    private func finishSeek(_ seek: PendingSeek, in feed: ReplayFeed) {
        pendingSeek = nil
        status.progress = nil
        replayTick(feed)
        guard let time = seek.requested, case .time(let target) = seek.target else { return }
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

    /// `g`: goes to `time` after the recording's start, saying so when that is before `--from`
    /// or past the recording's end instead of silently stopping short.
    func goTo(_ time: UInt64, in feed: ReplayFeed) {
        seek(feed, to: .time(max(time, feed.from)), requested: time)
    }

    /// How far along the target's measure the replay stands: its clock, or its timed events.
    private static func measure(_ feed: ReplayFeed, toward target: ReplayFeed.Target) -> UInt64 {
        switch target {
        case .time: feed.position
        case .events: UInt64(feed.timedEvents)
        }
    }

    /// `going back to @12.5s` or `going back to event 1200`.
    private static func goalText(_ seek: PendingSeek) -> String {
        let goal: String
        switch seek.target {
        case .time(let time): goal = "@\(Format.streamTime(time))s"
        case .events(let count): goal = "event \(count)"
        }
        return (seek.backward ? "going back to " : "going to ") + goal
    }

    /// `going back to @12.5s: 45% (Esc stops)`.
    private static func progressText(_ seek: PendingSeek, feed: ReplayFeed) -> String {
        let goal: UInt64
        switch seek.target {
        case .time(let time): goal = time
        case .events(let count): goal = UInt64(max(0, count))
        }
        let done = measure(feed, toward: seek.target)
        let span = goal > seek.origin ? goal - seek.origin : 0
        let percent = span == 0 ? 0 : min(99, (done > seek.origin ? done - seek.origin : 0) * 100 / span)
        return goalText(seek) + ": \(percent)% (Esc stops)"
    }
}
