import Synchronization

/// The post whose `AsyncMessage` observer call is running in the current task. The call may move
/// between threads at each suspension, so the thread's post context cannot carry it; a post made
/// inside it reads this to name its parent.
///
/// Reading a task-local costs about as much as the rest of a traced post (13–16 ns measured), so
/// a post reads it only while some traced call is running: when ``running`` is 0 no post can be
/// inside one, and the answer, 0, costs one load.
enum AsyncDeliveryScope {
    /// One observer call. Tasks the call starts inherit it; once the call has returned, their
    /// posts are nobody's children, the same whether or not other calls are running.
    private final class Call: Sendable {
        let postID: UInt64
        let isRunning = Atomic<Bool>(true)

        init(postID: UInt64) { self.postID = postID }
    }

    @TaskLocal private static var call: Call?
    /// Traced `AsyncMessage` observer calls running now, all centers together.
    private static let running = Atomic<Int>(0)

    /// The post whose traced `AsyncMessage` call the calling code runs in; 0 outside one.
    @inline(__always)
    static var currentPostID: UInt64 {
        guard running.load(ordering: .relaxed) != 0 else { return 0 }
        return runningCallPostID()
    }

    @inline(never)
    private static func runningCallPostID() -> UInt64 {
        guard let call, call.isRunning.load(ordering: .relaxed) else { return 0 }
        return call.postID
    }

    /// Runs an observer's call for post `postID`.
    static func run(for postID: UInt64, _ body: () async -> Void) async {
        let call = Call(postID: postID)
        running.add(1, ordering: .relaxed)
        await $call.withValue(call) { await body() }
        call.isRunning.store(false, ordering: .relaxed)
        running.subtract(1, ordering: .relaxed)
    }
}

extension ThreadContext {
    /// The traced `AsyncMessage` call a post made now is nested in: the task's, when this thread
    /// is delivering no post of its own; nil otherwise. A post made inside one runs within it.
    @inline(__always)
    var asyncDeliveryParent: UInt64? {
        guard currentPostID == 0 else { return nil }
        let parent = AsyncDeliveryScope.currentPostID
        return parent == 0 ? nil : parent
    }
}
