import Foundation
import NotifyKit
import Synchronization

/// Carries download progress from worker threads to the main thread and coalesces it there with
/// a ``NotifyQueue``: many updates per download, one `DownloadProgress` post per download per
/// run-loop pass, on the main thread that runs the loop.
///
/// Workers drop updates into a locked mailbox; one main-queue hop at a time empties it into the
/// queue (`.asap`, coalescing on name and sender, so per download). The relay also keeps the
/// ground truth of those posts, which the queue makes without going through the app's `post`:
/// enqueued − coalesced − still pending.
final class ProgressRelay: @unchecked Sendable {  // `lock` guards the mailbox; the rest is main-lane only
    private let context: DemoContext
    private let queue: NotifyQueue
    private let lock = NSLock()
    private var mailbox: [(download: Download, fraction: Double)] = []
    private var hopScheduled = false
    private(set) var enqueued = 0
    private(set) var coalesced = 0

    /// Must be created on the main lane, whose run loop will post the coalesced notifications.
    init(context: DemoContext) {
        self.context = context
        queue = NotifyQueue(center: context.center)
    }

    /// Posts made by the queue so far; read on the main lane.
    var posted: Int { enqueued - coalesced - queue.pendingCount }

    /// Notifications waiting for the next run-loop pass; read on the main lane.
    var pending: Int { queue.pendingCount }

    /// Called on a worker: `download` reached `fraction`.
    func report(_ download: Download, fraction: Double) {
        let needsHop = lock.withLock { () -> Bool in
            mailbox.append((download, fraction))
            defer { hopScheduled = true }
            return !hopScheduled
        }
        if needsHop {
            context.onMain { [self] in drain() }
        }
    }

    /// Main lane: moves the mailbox into the queue.
    private func drain() {
        let updates = lock.withLock { () -> [(download: Download, fraction: Double)] in
            defer {
                mailbox.removeAll(keepingCapacity: true)
                hopScheduled = false
            }
            return mailbox
        }
        for update in updates {
            let before = queue.pendingCount
            queue.enqueue(
                Notification(
                    name: DemoName.downloadProgress.name, object: update.download,
                    userInfo: ["fraction": update.fraction]),
                postingStyle: .asap, coalesceMask: [.onName, .onSender], forModes: nil)
            enqueued += 1
            let replaced = before + 1 - queue.pendingCount
            coalesced += replaced
            // A notification that replaced none is one more post to come: it counts against the rate.
            if replaced == 0 { context.pacedPosts.add(1, ordering: .relaxed) }
        }
    }
}

/// A file being downloaded by a worker; the sender of its progress notifications.
final class Download: @unchecked Sendable {  // owned by one worker lane; only identity crosses threads
    let number: Int
    var fraction = 0.0

    init(number: Int) {
        self.number = number
    }
}
