import Dispatch
import Foundation
import NotifySystem

/// A thread with its own run loop that handlers can be delivered on.
///
/// Apple's guide tells apps to redirect notifications to a particular thread by hand: a locked
/// queue, a port and a handler that re-posts. `DeliveryTarget.thread` does that for you. The thread
/// runs until the `DeliveryThread` is released (registrations delivering to it keep it alive), and
/// the OS thread carries the name, cut to the 15 bytes Linux keeps.
///
/// ```swift
/// let io = DeliveryThread(name: "io")
/// center.addObserver(forName: .downloadDidFinish, object: nil, deliverOn: .thread(io)) { note in … }
/// ```
public final class DeliveryThread: Sendable {
    /// The name given at creation; the kernel's copy is at most 15 bytes.
    public let name: String
    private let core: Core

    /// Starts the thread and returns once its run loop is ready to take work.
    public init(name: String) {
        self.name = name
        core = Core()
        let core = self.core
        let started = DispatchSemaphore(value: 0)
        let named = DispatchSemaphore(value: 0)
        let thread = Thread {
            // A name set before start() is lost on Linux; wait until start() has returned.
            named.wait()
            let kernelName = DeliveryThread.kernelName(name)
            Thread.current.name = kernelName
            core.start(context: ThreadContext.register(named: name))
            started.signal()
            core.runUntilStopped()
        }
        thread.start()
        named.signal()
        started.wait()
    }

    deinit { core.stop() }

    /// The thread as events name it.
    public var thread: NotifyThread { core.notifyThread }

    /// Runs `work` on the thread, after work handed over earlier; returns at once.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        core.enqueue(work)
    }

    /// The longest prefix of `name` that fits the kernel's 15 bytes without splitting a character.
    static func kernelName(_ name: String) -> String {
        var result = ""
        for character in name {
            if result.utf8.count + String(character).utf8.count > 15 { break }
            result.append(character)
        }
        return result
    }

    private final class Core: @unchecked Sendable {  // `state` is behind its lock; runLoop is set once before use
        private struct State {
            var pending: [@Sendable () -> Void] = []
            var stopped = false
            var wakeScheduled = false
        }
        private let state = LockedValue(State())
        private var runLoop: RunLoop?
        private var context: ThreadContext?

        var notifyThread: NotifyThread { context!.thread }

        func start(context: ThreadContext) {
            self.context = context
            runLoop = RunLoop.current
        }

        func runUntilStopped() {
            let runLoop = RunLoop.current
            // A far-future timer keeps the mode non-empty, so run(mode:before:) sleeps instead of spinning.
            let keepAlive = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
            runLoop.add(keepAlive, forMode: .default)
            while !state.withLock({ $0.stopped }) {
                _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.25))
            }
            keepAlive.invalidate()
            drain()
        }

        func enqueue(_ work: @escaping @Sendable () -> Void) {
            let needsWake = state.withLock { state -> Bool in
                state.pending.append(work)
                defer { state.wakeScheduled = true }
                return !state.wakeScheduled
            }
            guard needsWake, let runLoop else { return }
            // Adding a due timer to another thread's run loop wakes that loop.
            let timer = Timer(fire: Date(), interval: 0, repeats: false) { [self] _ in drain() }
            runLoop.add(timer, forMode: .common)
        }

        private func drain() {
            while true {
                let batch = state.withLock { state -> [@Sendable () -> Void] in
                    defer { state.pending.removeAll(keepingCapacity: true) }
                    if state.pending.isEmpty { state.wakeScheduled = false }
                    return state.pending
                }
                if batch.isEmpty { return }
                for work in batch { work() }
            }
        }

        func stop() {
            state.withLock { $0.stopped = true }
        }
    }
}
