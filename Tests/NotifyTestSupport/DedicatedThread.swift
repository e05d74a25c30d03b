import Foundation

/// Runs `body` on a new thread with an 8 MiB stack (a whole demo run nests deep) and waits for
/// its result.
package func onDedicatedThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
    let box = ResultBox<Result>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    done.wait()
    return box.value!
}

private final class ResultBox<Value>: @unchecked Sendable {  // written before the semaphore, read after
    var value: Value?
}

/// Runs `body` on a new thread with an 8 MiB stack and awaits its result without holding a thread
/// of the concurrency pool meanwhile: a long run does not starve the tests running beside it.
package func awaitingDedicatedThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
