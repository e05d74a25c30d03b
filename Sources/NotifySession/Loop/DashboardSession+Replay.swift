import NotifyModel
import NotifyTUI

extension DashboardSession {
    /// What a key asks of a replay's clock: play, pause, step, seek or change speed. Only a replay
    /// has such a clock; elsewhere the steps, seeks and speeds do nothing and pause freezes the screen.
    enum ReplayCommand {
        case setPaused(Bool)
        case stepEvents(Int)
        case stepSeconds(Double)
        case scaleSpeed(Double)
        case stepBackEvents(Int)
        case stepBackSeconds(Double)
        case goToTime(UInt64)

        /// The replay command `command` stands for, with pause taken from the view (the reducer has
        /// already toggled it); nil for commands that are not about the replay clock.
        init?(_ command: SessionCommand, paused: Bool) {
            switch command {
            case .togglePause: self = .setPaused(paused)
            case .stepEvents(let count): self = .stepEvents(count)
            case .stepSeconds(let seconds): self = .stepSeconds(seconds)
            case .scaleSpeed(let factor): self = .scaleSpeed(factor)
            case .stepBackEvents(let count): self = .stepBackEvents(count)
            case .stepBackSeconds(let seconds): self = .stepBackSeconds(seconds)
            case .goToTime(let nanoseconds): self = .goToTime(nanoseconds)
            case .toggleRecording, .toggleProbeMode, .markRegistrations, .scaleDelay, .repaint, .export, .dumpScreen,
                .setTheme, .logAction, .attach:
                return nil
            }
        }
    }

    /// Carries out a replay command on the replay's feed, folding whatever it moves past.
    func perform(_ command: ReplayCommand, on feed: ReplayFeed) {
        if isSeeking {
            switch command {
            case .setPaused, .scaleSpeed: break
            case .stepEvents, .stepSeconds, .stepBackEvents, .stepBackSeconds, .goToTime:
                // One seek at a time: a step from a half-folded state would land somewhere unasked.
                status.message = "no steps during a seek: wait, or Esc stops it"
                return
            }
        }
        switch command {
        case .setPaused(let paused):
            feed.paused = paused
            lastAdvance = CPUMeter.wallNanoseconds()
            replayTick(feed)
        case .stepEvents(let count):
            ingest(feed.step(events: count))
            replayTick(feed)
        case .stepSeconds(let seconds):
            ingest(feed.step(seconds: seconds))
            replayTick(feed)
        case .scaleSpeed(let factor):
            feed.scaleSpeed(by: factor)
            replayTick(feed)
            // The badge shows the speed only while playing; say it when paused or ended too.
            status.message =
                "replay speed " + Format.speed(feed.speed, times: "×")
                + (feed.paused ? " (paused: p plays)" : "")
        case .stepBackEvents(let count): seek(feed, to: feed.target(back: count))
        case .stepBackSeconds(let seconds): seek(feed, to: feed.target(backSeconds: seconds))
        case .goToTime(let nanoseconds): goTo(nanoseconds, in: feed)
        }
    }

    /// Whether this is a replay at full speed (everything at once).
    var isFastReplay: Bool {
        if case .replay(let feed) = source { return feed.speed == 0 }
        return false
    }

    /// Plays the replay on by the wall-clock time since the last pass.
    /// At full speed it folds slices for at most ``seekPassNanoseconds``, so keys are answered.
    func advance(_ feed: ReplayFeed, now: UInt64) {
        let elapsed = now - min(now, lastAdvance)
        let deadline = CPUMeter.wallNanoseconds() + seekPassNanoseconds
        var batch = feed.advance(elapsedNanoseconds: elapsed, limit: seekChunk)
        ingest(batch)
        while batch.count == seekChunk, CPUMeter.wallNanoseconds() < deadline {
            batch = feed.advance(elapsedNanoseconds: 0, limit: seekChunk)
            ingest(batch)
        }
        replayTick(feed)
    }

    /// Shows where the replay stands. The model is not ticked with the replay's clock: its time
    /// is the replayed events' own, so it stops at the last event when the replay ends.
    func replayTick(_ feed: ReplayFeed) {
        if let start = feed.start { status.clockBase = start }
        status.replayPosition = feed.start != nil ? feed.position : nil
        ended = feed.isFinished
        if ended, !reportedSkippedLines, let skipped = feed.skippedLines {
            reportedSkippedLines = true
            status.message = "\(feed.origin): \(skipped)"
            logAction(.note, "\(feed.origin): \(skipped)")
        }
        model.setStream(ended ? .ended(feed.finishReason) : .replaying(position: feed.position, duration: nil))
        status.mode = ended ? .ended(feed.finishReason) : .replay(speed: feed.speed, paused: feed.paused)
    }
}
