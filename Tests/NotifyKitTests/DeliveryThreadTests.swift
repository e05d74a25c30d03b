import Dispatch
import Foundation
import NotifyKit
import NotifyTestSupport
import Testing

/// `DeliveryThread`: a named thread with a run loop that handlers can be delivered on.
@Suite struct DeliveryThreadTests {
    /// A thread name and what the kernel must keep of it: at most 15 bytes, whole characters.
    struct NameCase: Sendable, CustomTestStringConvertible {
        let name: String
        let kernel: String
        var testDescription: String { "\"\(name)\" → \"\(kernel)\"" }
    }

    @Test(
        "the OS thread carries the name cut to 15 bytes, and NotifyThread.current.name is the full name",
        arguments: [
            NameCase(name: "io", kernel: "io"),
            NameCase(name: "exactly-15-byte", kernel: "exactly-15-byte"),
            NameCase(name: "notifykit.delivery.thread", kernel: "notifykit.deliv"),
            NameCase(name: "übertragung-thread", kernel: "übertragung-th"),  // "ü" is 2 bytes
            NameCase(name: "日本語のスレッド名", kernel: "日本語のス"),  // 3 bytes each: 5 fit
        ])
    func threadNames(_ nameCase: NameCase) {
        let center = NotifyCenter()
        let thread = DeliveryThread(name: nameCase.name)
        let kernelName = Slot<String>()
        let notifyName = Slot<String>()
        let handled = DispatchSemaphore(value: 0)
        let token = center.addObserver(forName: .testN, object: nil, deliverOn: .thread(thread)) { _ in
            kernelName.value = kernelThreadName()
            notifyName.value = NotifyThread.current.name
            handled.signal()
        }
        center.post(name: .testN)
        #expect(wait(handled))
        #expect(kernelName.value == nameCase.kernel)
        #expect(kernelName.value.map { $0.utf8.count <= 15 } == true)
        #expect(notifyName.value == nameCase.name)
        #expect(thread.name == nameCase.name)
        #expect(thread.thread.name == nameCase.name)
        token.cancel()
    }

    @Test("handlers run on the delivery thread, whichever thread posts")
    func handlersRunOnTheDeliveryThread() {
        let center = NotifyCenter()
        let thread = DeliveryThread(name: "tests.deliver")
        let threads = Recorder<UInt64>()
        let token = center.addObserver(forName: .testN, object: nil, deliverOn: .thread(thread)) { _ in
            threads.append(NotifyThread.current.id)
        }
        center.post(name: .testN)
        #expect(finishes { center.post(name: .testN) })
        concurrently(threads: 3) { _ in center.post(name: .testN) }
        #expect(eventually { threads.count == 5 })
        #expect(Set(threads.all) == [thread.thread.id])
        #expect(thread.thread.id != NotifyThread.current.id)
        token.cancel()
    }

    @Test("many hand-offs to a delivery thread arrive in FIFO order, across handlers and posts")
    func handOffsArriveInFIFOOrder() {
        let center = NotifyCenter()
        let thread = DeliveryThread(name: "tests.fifo")
        let log = Recorder<String>()
        let tokens = [
            center.addObserver(forName: .testN, object: nil, deliverOn: .thread(thread)) { note in
                log.append("a\(note.userInfo?["k"] as? Int ?? -1)")
            },
            center.addObserver(forName: nil, object: nil, deliverOn: .thread(thread)) { note in
                log.append("b\(note.userInfo?["k"] as? Int ?? -1)")
            },
        ]
        let posts = 1_000
        for k in 0..<posts { center.post(name: .testN, object: nil, userInfo: ["k": k]) }
        #expect(eventually { log.count == 2 * posts })
        #expect(log.all == (0..<posts).flatMap { ["a\($0)", "b\($0)"] })
        tokens.forEach { $0.cancel() }
    }

    @Test("perform runs work on the thread in the order it was handed over")
    func performIsFIFO() {
        let thread = DeliveryThread(name: "tests.perform")
        let log = Recorder<Int>()
        let onThread = Counter()
        let threadID = thread.thread.id
        for k in 0..<300 {
            thread.perform {
                if NotifyThread.current.id == threadID { onThread.increment() }
                log.append(k)
            }
        }
        #expect(eventually { log.count == 300 })
        #expect(log.all == Array(0..<300))
        #expect(onThread.value == 300)
    }

    @Test("work handed over from inside the delivery thread runs after the current work")
    func performFromTheThreadItself() {
        let thread = DeliveryThread(name: "tests.nested")
        let log = Recorder<String>()
        thread.perform {
            thread.perform { log.append("inner") }
            log.append("outer")
        }
        #expect(eventually { log.count == 2 })
        #expect(log.all == ["outer", "inner"])
    }

    @Test("a delivery thread is not the process's main thread and has a stable id")
    func threadIdentity() {
        let thread = DeliveryThread(name: "tests.identity")
        let seen = Slot<NotifyThread>()
        let done = DispatchSemaphore(value: 0)
        thread.perform {
            seen.value = NotifyThread.current
            done.signal()
        }
        #expect(wait(done))
        #expect(seen.value == thread.thread)
        #expect(seen.value?.isMain == false)
        #expect(NotifyThread.lookup(thread.thread.id)?.name == "tests.identity")
    }
}
