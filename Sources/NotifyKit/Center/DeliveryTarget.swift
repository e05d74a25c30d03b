public import Dispatch
public import Foundation

/// Where a handler runs.
///
/// `.posting` and `.operationQueue` are synchronous: `post` returns after the handler has run.
/// `.dispatchQueue`, `.thread` and `.main` hand the notification off and `post` returns at once;
/// a registration removed before its hand-off runs is not called.
public enum DeliveryTarget: Sendable {
    /// On the posting thread, before `post` returns: Foundation's `queue: nil`.
    case posting
    /// As an operation on the queue, and `post` waits for that one operation (Darwin's behaviour);
    /// inline when the poster is already running on that queue, so a queue never waits on itself.
    case operationQueue(OperationQueue)
    /// Asynchronously on the dispatch queue.
    case dispatchQueue(DispatchQueue)
    /// Asynchronously on a thread with its own run loop: Apple's "deliver to a particular thread"
    /// recipe, built in.
    case thread(DeliveryThread)
    /// Asynchronously on the main dispatch queue, the main actor's executor.
    ///
    /// - Note: Under `swift test` on Linux that queue is drained by a thread for which
    ///   `Thread.isMainThread` is false; events report the thread that really ran the handler.
    case main

    /// The kind of target, for events and descriptions.
    public var kind: ProbeEvent.TargetKind {
        switch self {
        case .posting: .posting
        case .operationQueue: .operationQueue
        case .dispatchQueue: .dispatchQueue
        case .thread: .thread
        case .main: .main
        }
    }

    var label: String? {
        switch self {
        case .posting, .main: nil
        case .operationQueue(let queue): queue.name
        case .dispatchQueue(let queue): queue.label
        case .thread(let thread): thread.name
        }
    }

    var isPosting: Bool {
        if case .posting = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .posting: "posting thread"
        case .main: "main queue"
        case .operationQueue(let queue): "operation queue \"\(queue.name ?? "unnamed")\""
        case .dispatchQueue(let queue): "dispatch queue \"\(queue.label)\""
        case .thread(let thread): "thread \"\(thread.name)\""
        }
    }

    /// Runs `work` where this target says; synchronously for `.posting` and `.operationQueue`.
    func run(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .posting:
            work()
        case .operationQueue(let queue):
            if OperationQueue.current === queue {
                work()
            } else {
                queue.addOperations([BlockOperation(block: work)], waitUntilFinished: true)
            }
        case .dispatchQueue(let queue):
            queue.async(execute: work)
        case .thread(let thread):
            thread.perform(work)
        case .main:
            DispatchQueue.main.async(execute: work)
        }
    }
}
