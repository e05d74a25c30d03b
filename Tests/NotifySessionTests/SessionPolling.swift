import Foundation
@testable import NotifySession
import NotifyTestSupport

/// The viewer's wall time a polling test gives the session: the real clock, or one that moves a
/// fixed step per poll, so the session's timers (reconnect back-off, cut-off) expire without waiting.
final class PollClock {
    private var stepped: (now: UInt64, step: UInt64)?

    /// The real wall clock.
    static var wall: PollClock { PollClock() }

    private init() {}

    /// Starts at `start` nanoseconds and moves `step` per poll; one clock may serve several polls.
    init(from start: UInt64 = 1_000_000_000, step: UInt64) {
        stepped = (start, step)
    }

    func next() -> UInt64 {
        guard var stepped else { return CPUMeter.wallNanoseconds() }
        stepped.now += stepped.step
        self.stepped = stepped
        return stepped.now
    }

    /// Moves a stepped clock by `nanoseconds` at once, for a poll made outside ``DashboardSession/pollUntil(clock:seconds:_:)``.
    func advance(by nanoseconds: UInt64) -> UInt64 {
        guard var stepped else { return CPUMeter.wallNanoseconds() }
        stepped.now += nanoseconds
        self.stepped = stepped
        return stepped.now
    }
}

extension DashboardSession {
    /// Polls the session (its feeds read on their own threads) until `done` holds, telling it the
    /// time from `clock`; false after `seconds`. Callers record the failure: `#expect(session.pollUntil { … })`.
    func pollUntil(clock: PollClock = .wall, seconds: TimeInterval = patience, _ done: () -> Bool) -> Bool {
        eventually(seconds: seconds) {
            poll(now: clock.next())
            return done()
        }
    }
}
