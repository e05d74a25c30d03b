public import Foundation
import NotifySystem
import Synchronization

/// `NotificationQueue`'s semantics, posting into a ``NotifyCenter``, without Linux Foundation's
/// defects: FIFO order, `.asap` before `.whenIdle`, enqueueing from a handler during a flush is
/// safe (the notification waits for the next flush), and custom run-loop modes are flushed.
///
/// `.asap` and `.whenIdle` notifications are posted by the enqueuing thread's run loop: `.asap`
/// at the start of its next pass and after timers and sources fire, `.whenIdle` when the pass is
/// about to wait. Nothing is posted until that thread runs its run loop in one of the modes.
/// Coalescing keeps the newest notification and moves it to the tail.
///
/// Like Foundation's, a queue belongs to the thread that uses it and is not `Sendable`.
///
/// ```swift
/// NotifyQueue.default.enqueue(Notification(name: .downloadProgress, object: download),
///                             postingStyle: .asap)   // many updates, one post per pass
/// ```
public final class NotifyQueue {
    /// The queue of the calling thread, posting to ``NotifyCenter/default``; one per thread.
    public static var `default`: NotifyQueue {
        let dictionary = Thread.current.threadDictionary
        if let queue = dictionary[defaultKey] as? NotifyQueue { return queue }
        let queue = NotifyQueue(center: .default)
        dictionary[defaultKey] = queue
        return queue
    }

    private static let defaultKey = "NotifyKit.NotifyQueue.default"
    private static let lastID = Atomic<UInt64>(0)

    /// The center this queue posts to.
    public let center: NotifyCenter
    /// Identifies the queue in events; never reused in the process.
    public let id: UInt64

    private struct Entry {
        let notification: Notification
        let sender: Sender
        let modes: [RunLoop.Mode]
        /// The `enqueue` call, which the post reports as its site.
        let file: StaticString
        let line: UInt
        let enqueuedAt: UInt64
        /// The enqueues this one replaced (and those they had replaced), for the post to report.
        var merged: [Merged] = []
    }

    /// Enqueues from one call site merged into an entry: a busy coalescing site adds a count, not
    /// an element, so an entry holds at most one per call site.
    private struct Merged {
        let callsite: ProbeEvent.Callsite
        var count: Int
        /// When the first of them was made.
        var enqueuedAt: UInt64
    }

    /// `list` with `other`'s merges added, one element per call site.
    private static func merging(_ list: [Merged], _ other: Merged) -> [Merged] {
        var list = list
        if let index = list.firstIndex(where: { $0.callsite == other.callsite }) {
            list[index].count += other.count
            list[index].enqueuedAt = min(list[index].enqueuedAt, other.enqueuedAt)
        } else {
            list.append(other)
        }
        return list
    }

    private var asap: [Entry] = []
    private var idle: [Entry] = []
    private var asapScheduled: Set<RunLoop.Mode> = []
    private var idleScheduled: Set<RunLoop.Mode> = []

    /// Creates a queue on the calling thread that posts to `center`.
    public init(center: NotifyCenter) {
        self.center = center
        id = Self.lastID.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Foundation's spelling of ``init(center:)``.
    public convenience init(notificationCenter: NotifyCenter) {
        self.init(center: notificationCenter)
    }

    /// The number of notifications waiting to be posted.
    public var pendingCount: Int { asap.count + idle.count }

    /// Enqueues with coalescing on name and sender, in the default mode.
    public func enqueue(
        _ notification: Notification, postingStyle: NotificationQueue.PostingStyle, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        enqueue(
            notification, postingStyle: postingStyle, coalesceMask: [.onName, .onSender], forModes: nil, file: file,
            line: line)
    }

    /// Enqueues `notification`, first removing pending notifications it coalesces with.
    ///
    /// - Parameters:
    ///   - notification: The notification to post.
    ///   - postingStyle: `.now` posts at once (if the run loop is not running, or runs in one of
    ///     `modes`); `.asap` and `.whenIdle` wait for the run loop.
    ///   - coalesceMask: Which pending notifications this one replaces: same name, same sender
    ///     (the same instance, or an equal `Hashable` value, as observers match them), both, or none.
    ///   - modes: The run-loop modes that may post it; nil means `.default`. Matched literally:
    ///     `.common` is a mode name here, not a set.
    ///   - file: The call's `#fileID`: the post's site in events, and a merged enqueue's.
    ///   - line: The call's line.
    public func enqueue(
        _ notification: Notification, postingStyle: NotificationQueue.PostingStyle,
        coalesceMask: NotificationQueue.NotificationCoalescing, forModes modes: [RunLoop.Mode]?,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        let modes = modes ?? [.default]
        let sender = Sender(notification.object)
        var entry = Entry(
            notification: notification, sender: sender, modes: modes, file: file, line: line,
            enqueuedAt: MonotonicClock.now())
        let replaced = removePending(name: notification.name, sender: sender, mask: coalesceMask)
        if !replaced.isEmpty {
            report(.coalesced, name: notification.name, style: nil, count: replaced.count)
            for old in replaced {
                let own = Merged(
                    callsite: ProbeEvent.Callsite(file: old.file, line: old.line), count: 1, enqueuedAt: old.enqueuedAt)
                entry.merged = (old.merged + [own]).reduce(entry.merged, Self.merging)
            }
        }
        switch postingStyle {
        case .now:
            report(.enqueued, name: notification.name, style: "now", count: 1)
            if let current = RunLoop.current.currentMode, !modes.contains(current) { return }
            post(entry)
        case .asap:
            asap.append(entry)
            report(.enqueued, name: notification.name, style: "asap", count: 1)
            schedule(modes, idle: false)
        case .whenIdle:
            idle.append(entry)
            report(.enqueued, name: notification.name, style: "idle", count: 1)
            schedule(modes, idle: true)
        @unknown default:
            center.post(notification)
        }
    }

    /// Removes pending notifications that match `notification` under `coalesceMask`: same name,
    /// same sender, or both. An empty mask removes nothing, as in Foundation.
    public func dequeueNotifications(
        matching notification: Notification,
        coalesceMask: NotificationQueue.NotificationCoalescing
    ) {
        let removed = removePending(
            name: notification.name, sender: Sender(notification.object), mask: coalesceMask)
        if !removed.isEmpty { report(.dequeued, name: notification.name, style: nil, count: removed.count) }
    }

    /// Removes and returns the pending entries that match.
    private func removePending(
        name: Notification.Name, sender: Sender,
        mask: NotificationQueue.NotificationCoalescing
    ) -> [Entry] {
        let onName = mask.contains(.onName)
        let onSender = mask.contains(.onSender)
        guard onName || onSender else { return [] }
        var removed: [Entry] = []
        func matches(_ entry: Entry) -> Bool {
            guard (!onName || entry.notification.name == name) && (!onSender || entry.sender == sender) else {
                return false
            }
            removed.append(entry)
            return true
        }
        asap.removeAll(where: matches)
        idle.removeAll(where: matches)
        return removed
    }

    private func schedule(_ modes: [RunLoop.Mode], idle: Bool) {
        let runLoop = RunLoop.current
        let queue = UncheckedQueue(self)
        for mode in modes {
            if idle {
                guard idleScheduled.insert(mode).inserted else { continue }
                // A due one-shot timer fires after the pass's blocks, just before the loop waits.
                let timer = Timer(fire: Date(), interval: 0, repeats: false) { _ in
                    queue.queue.flush(idle: true, scheduledMode: mode)
                }
                runLoop.add(timer, forMode: mode)
            } else {
                guard asapScheduled.insert(mode).inserted else { continue }
                runLoop.perform(inModes: [mode]) {
                    queue.queue.flush(idle: false, scheduledMode: mode)
                }
            }
        }
    }

    /// Posts, in FIFO order, the pending entries that the current mode may post: `.asap` ones
    /// always first, so an `.asap` enqueued by a handler still precedes an idle flush in the same
    /// pass. Entries are taken out before any post, so handlers may enqueue freely.
    private func flush(idle fromIdle: Bool, scheduledMode: RunLoop.Mode) {
        if fromIdle { idleScheduled.remove(scheduledMode) } else { asapScheduled.remove(scheduledMode) }
        let mode = RunLoop.current.currentMode ?? scheduledMode
        post(Self.take(from: &asap, in: mode), style: "asap")
        if fromIdle {
            post(Self.take(from: &idle, in: mode), style: "idle")
        }
    }

    private static func take(from list: inout [Entry], in mode: RunLoop.Mode) -> [Entry] {
        var due: [Entry] = []
        list.removeAll { entry in
            guard entry.modes.contains(mode) else { return false }
            due.append(entry)
            return true
        }
        return due
    }

    private func post(_ due: [Entry], style: String) {
        guard !due.isEmpty else { return }
        report(.flushed, name: nil, style: style, count: due.count)
        for entry in due {
            post(entry)
        }
    }

    /// Posts `entry` at its enqueue's site; then, while probed, reports the enqueues merged into it.
    private func post(_ entry: Entry) {
        guard !entry.merged.isEmpty else {
            center.post(entry.notification, file: entry.file, line: entry.line)
            return
        }
        // The post takes the next id this thread holds for the center.
        let postID = ThreadContext.current.nextPostID()
        center.post(entry.notification, file: entry.file, line: entry.line)
        for merged in entry.merged {
            center.emitIfProbed(
                .queueMerged(
                    ProbeEvent.QueueMerge(
                        queueID: id, postID: postID, callsite: merged.callsite, count: merged.count,
                        enqueuedAt: merged.enqueuedAt)))
        }
    }

    private func report(_ action: ProbeEvent.QueueActivity.Action, name: Notification.Name?, style: String?, count: Int)
    {
        center.emitIfProbed(
            .queue(
                ProbeEvent.QueueActivity(
                    queueID: id, action: action, name: name?.rawValue, style: style, count: count, pending: pendingCount
                )))
    }
}

extension NotifyQueue: Hashable {
    /// Identity, as Foundation's queues compare: each thread's ``default`` is its own queue.
    public static func == (lhs: NotifyQueue, rhs: NotifyQueue) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// A pending notification's sender as coalescing compares it: the same instance, or an equal
/// `Hashable` value. Other values count as no sender, as nil does.
private enum Sender: Equatable {
    case none
    case instance(ObjectIdentifier)
    case value(AnyHashable)

    init(_ object: Any?) {
        switch ObjectFilter(object) {
        case .instance(let instance): self = .instance(ObjectIdentifier(instance))
        case .value(let value): self = .value(value)
        case .any, .unhashable: self = .none
        }
    }
}

/// Lets a run-loop block of the queue's own thread reach the queue; it never leaves that thread.
private struct UncheckedQueue: @unchecked Sendable {
    let queue: NotifyQueue
    init(_ queue: NotifyQueue) { self.queue = queue }
}

extension NotifyCenter {
    func emitIfProbed(_ kind: @autoclosure () -> ProbeEvent.Kind) {
        guard let probes = lock.withLock({ probes }) else { return }
        probes.emit(kind())
    }
}
