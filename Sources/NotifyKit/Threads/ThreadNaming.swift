import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds the name the app knows a thread by, beyond the kernel's 15 bytes: the operation queue or
/// dispatch queue it works for.
enum ThreadNaming {
    /// libdispatch's `dispatch_queue_get_label`, which the Dispatch module does not export on
    /// Linux; nil when it cannot be found.
    private typealias LabelFunction = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    private static let labelFunction: LabelFunction? = {
        guard let symbol = dlsym(nil, "dispatch_queue_get_label") else { return nil }
        return unsafeBitCast(symbol, to: LabelFunction.self)
    }()

    /// The label of the dispatch queue running the calling code, nil outside one. Root queues
    /// (what a plain thread or a global-queue worker reports) and the main queue name no work of
    /// the app's, so they count as none.
    static func currentQueueLabel() -> String? {
        guard let labelFunction, let raw = labelFunction(nil) else { return nil }
        let label = String(cString: raw)
        if label.isEmpty || label.hasPrefix("com.apple.root.") || label == "com.apple.main-thread" { return nil }
        return label
    }

    /// The calling thread's name from the queue it works for: the operation queue's name, else
    /// the dispatch queue's label; nil when it works for none (then the kernel's name is used).
    static func currentName(isMain: Bool) -> String? {
        guard !isMain else { return nil }
        if let queue = OperationQueue.current, let name = queue.name, !name.isEmpty { return name }
        return currentQueueLabel()
    }
}

extension ThreadContext {
    /// Names a worker thread after the queue a handler is about to run on, when that is not the
    /// queue it was last named after: pool threads serve many queues, and the one running the
    /// handler is the name that says what the thread is doing.
    @inline(__always)
    func name(after target: DeliveryTarget) {
        guard !thread.isMain else { return }
        switch target {
        case .dispatchQueue(let queue):
            guard queue !== namedAfterQueue else { return }
            namedAfterQueue = queue
            rename(queue.label)
        case .operationQueue(let queue):
            guard queue !== namedAfterQueue else { return }
            namedAfterQueue = queue
            if let name = queue.name, !name.isEmpty { rename(name) }
        case .posting, .thread, .main:
            return
        }
    }
}
