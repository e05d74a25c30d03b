import Synchronization

/// The post whose `AsyncMessage` observer call is running in the current task. The call may move
/// between threads at each suspension, so the thread's post context cannot carry it; a post made
/// inside it reads this to name its parent.
///
/// Reading a task-local costs about as much as the rest of a traced post (13–16 ns measured), so
/// a post reads it only while some traced call is running: when ``running`` is 0 no post can be
/// inside one, and the answer, 0, costs one load.
enum AsyncDeliveryScope {
    @TaskLocal private static var postID: UInt64 = 0
    /// Traced `AsyncMessage` observer calls running now, all centers together.
    private static let running = Atomic<Int>(0)

    /// The post whose traced `AsyncMessage` call the calling code runs in; 0 outside one.
    @inline(__always)
    static var currentPostID: UInt64 {
        running.load(ordering: .relaxed) == 0 ? 0 : postID
    }

    /// Runs an observer's call for post `postID`.
    static func run(for postID: UInt64, _ call: () async -> Void) async {
        running.add(1, ordering: .relaxed)
        await $postID.withValue(postID) { await call() }
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
