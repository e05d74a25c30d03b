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
