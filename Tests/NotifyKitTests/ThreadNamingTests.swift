import Dispatch
import Foundation
import NotifyKit
import Testing

/// Threads are named as the app knows them: the queue a handler runs on, the delivery thread's
/// full name, the name the app gave, the kernel's 15 bytes only as a last resort.
@Suite struct ThreadNamingTests {
    /// Posts `.testN` with a probe attached and returns the name the delivering thread had inside
    /// the handler registered by `register`.
    private func nameInsideHandler(
        _ register: (NotifyCenter, @escaping @Sendable (Notification) -> Void) -> NotifyToken
    ) throws -> String? {
        let center = NotifyCenter()
        let seen = LockedBox<String?>(nil)
        let ran = DispatchSemaphore(value: 0)
        let token = register(center) { _ in
            seen.value = NotifyThread.current.name
            ran.signal()
        }
        defer { token.cancel() }
        return try withProbe(on: center) { _ in
            center.post(name: .testN)
            try #require(wait(ran))
            return seen.value
        }
    }

    @Test("a handler on a labelled dispatch queue runs on a thread named after the queue")
    func dispatchQueueLabel() throws {
        let queue = DispatchQueue(label: "tests.naming.dispatch-queue-label")
        let name = try nameInsideHandler { center, handler in
            center.addObserver(forName: .testN, object: nil, deliverOn: .dispatchQueue(queue), using: handler)
        }
        #expect(name == "tests.naming.dispatch-queue-label")
    }

    @Test("a handler on a named operation queue runs on a thread named after the queue")
    func operationQueueName() throws {
        let operations = OperationQueue()
        operations.name = "tests.naming.operation-queue"
        let name = try nameInsideHandler { center, handler in
            center.addObserver(forName: .testN, object: nil, queue: operations, using: handler)
        }
        #expect(name == "tests.naming.operation-queue")
    }

    @Test("a delivery thread keeps its whole name, beyond the kernel's 15 bytes")
    func deliveryThreadName() throws {
        let thread = DeliveryThread(name: "tests.naming.delivery-thread")
        let name = try nameInsideHandler { center, handler in
            center.addObserver(forName: .testN, object: nil, deliverOn: .thread(thread), using: handler)
        }
        #expect(name == "tests.naming.delivery-thread")
        #expect(thread.thread.name == "tests.naming.delivery-thread")
    }

    @Test("a Foundation thread shows the name it set, or the whole name it gave NotifyKit")
    func foundationThreadNames() throws {
        let names = LockedBox<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let short = Thread {
            // Named on the thread itself once start() has returned: on Linux Foundation drops a
            // name set before start(), and start() itself renames the new thread.
            started.wait()
            Thread.current.name = "sync-worker"
            names.value.append(NotifyThread.current.name)
            done.signal()
        }
        short.start()
        started.signal()
        try #require(wait(done))
        let long = Thread {
            let before = NotifyThread.renameCount
            NotifyThread.nameCurrentThread("tests.naming.sync-worker-with-a-long-name")
            names.value.append(NotifyThread.current.name)
            names.value.append(NotifyThread.renameCount > before ? "renamed" : "not renamed")
            done.signal()
        }
        long.start()
        try #require(wait(done))
        #expect(names.value == ["sync-worker", "tests.naming.sync-worker-with-a-long-name", "renamed"])
    }

    @Test("a renamed thread keeps its id, and lookup finds the new name")
    func renameKeepsIdentity() throws {
        let result = LockedBox<(NotifyThread, NotifyThread?)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let first = NotifyThread.current
            NotifyThread.nameCurrentThread("tests.naming.renamed")
            result.value = (first, NotifyThread.lookup(first.id))
            done.signal()
        }
        thread.start()
        try #require(wait(done))
        let (first, renamed) = try #require(result.value)
        #expect(renamed?.id == first.id)
        #expect(renamed?.systemID == first.systemID)
        #expect(renamed?.name == "tests.naming.renamed")
    }

    @Test("renames(since:) lists the threads renamed since a count, for an exporter to look up")
    func renamesSince() throws {
        let result = LockedBox<(UInt64, [UInt64]?, UInt64)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let id = NotifyThread.current.id
            let before = NotifyThread.renameCount
            NotifyThread.nameCurrentThread("tests.naming.listed-rename")
            let renames = NotifyThread.renames(since: before)
            result.value = (id, renames.threads, renames.count)
            done.signal()
        }
        thread.start()
        try #require(wait(done))
        let (id, ids, count) = try #require(result.value)
        #expect(ids?.contains(id) == true)
        #expect(count >= 1)
        #expect(NotifyThread.renames(since: count + 1_000).threads == nil)
    }
}
