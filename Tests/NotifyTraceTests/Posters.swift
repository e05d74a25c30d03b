import Dispatch
import Foundation
import NotifyKit
import NotifyTestSupport
@testable import NotifySystem
import Testing

/// Threads that post one name in batches until stopped, counting what they posted: the app side
/// of a stream under load.
final class Posters: Sendable {
    private let running = LockedValue(true)
    private let count = LockedValue(0)
    private let group = DispatchGroup()

    /// Starts `threads` threads, each posting `batch` posts, then pausing `pause` microseconds.
    init(_ center: NotifyCenter, _ name: Notification.Name, threads: Int = 4, batch: Int = 100, pause: UInt32 = 0) {
        for _ in 0..<threads {
            DispatchQueue.global().async(group: group) { [running, count] in
                while running.withLock({ $0 }) {
                    for _ in 0..<batch { center.post(name: name) }
                    count.withLock { $0 += batch }
                    if pause > 0 { usleep(pause) }
                }
            }
        }
    }

    /// Posts made so far.
    var posted: Int { count.withLock { $0 } }

    /// Stops the threads and waits for them (at most `patience` seconds); returns every post made.
    @discardableResult
    func stop() -> Int {
        running.withLock { $0 = false }
        #expect(group.wait(timeout: .now() + patience) == .success, "the posting threads did not stop")
        return posted
    }
}
