package import Foundation
package import NotifySystem

/// How long a synchronous wait may take before the test counts as failed rather than hung. Every
/// wait ends as soon as what it waits for happens, so only a failing test waits this long; a slow
/// host under ThreadSanitizer must not fail a passing one.
package let patience: TimeInterval = 20

/// Polls `condition`, blocking the thread, until it holds or `seconds` pass; true when it held.
/// Callers record the failure: `#expect(eventually { … })` or `try #require(eventually { … })`.
package func eventually(seconds: TimeInterval = patience, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        if Date() >= deadline { return false }
        usleep(1_000)
    }
    return true
}

/// Waits, suspending, until `condition` holds; false when it did not within `budget` seconds of
/// the task pool's attention (see ``PoolAttention``).
package func eventually(budget: TimeInterval = PoolAttention.defaultBudget, _ condition: @Sendable () -> Bool) async
    -> Bool
{
    var attention = PoolAttention(budget: budget)
    while !condition() {
        guard await attention.sleep() else { return false }
    }
    return true
}

/// The first connection `listener` (non-blocking) accepts within `seconds`; nil when none came.
package func acceptedConnection(on listener: UnixSocket, seconds: TimeInterval = patience) -> UnixSocket? {
    var accepted: UnixSocket?
    _ = eventually(seconds: seconds) {
        accepted = listener.accept()
        return accepted != nil
    }
    return accepted
}
