import Dispatch
import Foundation
import NotifyKit
import NotifyTestSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Helpers shared by every suite of this target. Everything a handler touches from another thread
// sits behind an `NSLock` or in a `Synchronization.Atomic`, both of which ThreadSanitizer sees
// (`Synchronization.Mutex` it does not, on Linux).

// MARK: - Names and objects

extension Notification.Name {
    static let testN = Notification.Name("N")
    static let testM = Notification.Name("M")
    static let testOther = Notification.Name("other")
}

/// An object to post with and to filter on. Two subjects with the same `value` are equal but are
/// different instances, which is what identity matching must tell apart.
final class Subject: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    init(_ value: Int = 0) { self.value = value }
    static func == (lhs: Subject, rhs: Subject) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
    var description: String { "Subject(\(value))" }
    func touch() {}
    /// A target–action method that does nothing.
    func receive(_ note: Notification) {}
}

/// Allocates subjects, all kept alive, until one lands at `address` (the identity of a dead
/// object) or `limit` is reached; the last one is at that address when `reused` is true.
///
/// `release` drops the last reference to the object at `address`. Reuse is up to the allocator:
/// glibc's malloc finds the block surest on a new thread, whose own cache holds nothing else, while
/// ThreadSanitizer's allocator finds it on the thread that freed it; callers try both.
func allocateSubjects(
    untilReusing address: ObjectIdentifier, afterReleasing release: () -> Void, onNewThread: Bool = false,
    limit: Int = 5_000
) -> (subjects: [Subject], reused: Bool) {
    func allocate() -> (subjects: [Subject], reused: Bool) {
        let drained = (0..<64).map { Subject(-1 - $0) }
        defer { withExtendedLifetime(drained) {} }
        release()
        var subjects: [Subject] = []
        subjects.reserveCapacity(limit)
        while subjects.count < limit {
            let subject = Subject(subjects.count)
            subjects.append(subject)
            if ObjectIdentifier(subject) == address { return (subjects, true) }
        }
        return (subjects, false)
    }
    guard onNewThread else { return allocate() }
    return withoutActuallyEscaping(allocate) { allocate in
        let box = HandOverBox<(() -> (subjects: [Subject], reused: Bool))?>(allocate)
        var result: (subjects: [Subject], reused: Bool) = ([], false)
        let resultBox = HandOverBox(result)
        let thread = Thread {
            resultBox.value = box.value!()
            box.value = nil  // the closure must not outlive withoutActuallyEscaping
            box.done.signal()
        }
        thread.start()
        box.done.wait()
        result = resultBox.value
        return result
    }
}

/// Registers an observer filtered on a subject that then dies, and allocates subjects until one
/// takes the dead subject's address. Reuse is up to the allocator, so a try that sees none ends its
/// registration and starts again, alternating this thread and a new one; nil if no try succeeds.
func registerDeadFilter(
    attempts: Int = 6, _ register: (Subject) -> NotifyToken
) -> (token: NotifyToken, fresh: [Subject])? {
    registerDeadFilter(attempts: attempts, register, end: { $0.cancel() })
}

/// ``registerDeadFilter(attempts:_:)`` for any kind of registration: `end` ends a try's
/// registration when the allocator gave no reuse.
func registerDeadFilter<Token>(
    attempts: Int = 6, _ register: (Subject) -> Token, end: (Token) -> Void
) -> (token: Token, fresh: [Subject])? {
    for attempt in 0..<attempts {
        var filter: Subject? = Subject(1)
        let deadID = ObjectIdentifier(filter!)
        let token = register(filter!)
        let (subjects, reused) = allocateSubjects(
            untilReusing: deadID, afterReleasing: { filter = nil },
            onNewThread: attempt % 2 == 1)
        if reused { return (token, subjects) }
        end(token)
    }
    return nil
}

/// One observer of `.testN` and one wildcard observer that counts only `.testN`: what stress tests
/// check exact delivery counts with while other registrations come and go.
func countingTestNObservers(on center: NotifyCenter) -> (named: Counter, wildcard: Counter, tokens: [NotifyToken]) {
    let named = Counter()
    let wildcard = Counter()
    let tokens = [
        center.addObserver(forName: .testN, object: nil, queue: nil) { _ in named.increment() },
        center.addObserver(forName: nil, object: nil, queue: nil) { note in
            if note.name == .testN { wildcard.increment() }
        },
    ]
    return (named, wildcard, tokens)
}

/// Carries a value into a thread the caller waits for; `done` orders the accesses.
final class HandOverBox<Value>: @unchecked Sendable {  // written before `done` signals, read after
    var value: Value
    let done = DispatchSemaphore(value: 0)
    init(_ value: Value) { self.value = value }
}

/// The address an event shows for `object`.
func address(of object: AnyObject) -> UInt {
    UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
}

/// A weak reference that can be read from any thread, for checking when something deallocates.
final class WeakRef<Object: AnyObject>: @unchecked Sendable {  // `lock` guards `object`
    private let lock = NSLock()
    private weak var object: Object?
    init(_ object: Object?) { self.object = object }
    var value: Object? { lock.withLock { object } }
    var isAlive: Bool { value != nil }
}

// MARK: - Recording from handlers

/// Values appended from any thread, read back in arrival order.
final class Recorder<Value: Sendable>: @unchecked Sendable {  // `lock` guards `values`
    private let lock = NSLock()
    private var values: [Value] = []

    init() {}

    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
    var count: Int { lock.withLock { values.count } }
    func reset() { lock.withLock { values.removeAll() } }
}

/// A counter bumped from handlers on any thread.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    init() {}
    func increment() { storage.add(1, ordering: .relaxed) }
    func add(_ amount: Int) { storage.add(amount, ordering: .relaxed) }
    var value: Int { storage.load(ordering: .relaxed) }
}

/// A one-way flag, set from a handler and read by the test.
final class Flag: Sendable {
    private let storage = Atomic<Bool>(false)
    init() {}
    func set() { storage.store(true, ordering: .releasing) }
    var isSet: Bool { storage.load(ordering: .acquiring) }
}

/// A slot written once from another thread.
final class Slot<Value: Sendable>: @unchecked Sendable {  // `lock` guards `stored`
    private let lock = NSLock()
    private var stored: Value?
    init() {}
    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Holds a token or anything else a handler needs but that is only created after registering.
final class Later<Value>: @unchecked Sendable {  // `lock` guards `stored`
    private let lock = NSLock()
    private var stored: Value?
    init() {}
    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

// MARK: - Waiting and threads

/// Waits on `semaphore` for at most `timeout`; true when it was signalled.
func wait(_ semaphore: DispatchSemaphore, timeout: TimeInterval = patience) -> Bool {
    semaphore.wait(timeout: .now() + timeout) == .success
}

/// Runs `body` on a new thread and waits at most `timeout` for it; false if it did not finish
/// (a deadlock fails the test instead of hanging the run).
@discardableResult
func finishes(within timeout: TimeInterval = patience, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    return wait(done, timeout: timeout)
}

/// Keeps `objects` alive for good. After a deadlock inside a center, releasing its tokens would
/// block on the stuck lock, so a failing test abandons them instead of hanging the run.
func abandon(_ objects: AnyObject...) {
    for object in objects { _ = Unmanaged.passRetained(object) }
}

/// Runs `body(index)` on `count` new threads that start together, and waits for all of them.
func concurrently(threads count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            ready.signal()
            go.wait()
            body(index)
            group.leave()
        }
        thread.start()
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { go.signal() }
    group.wait()
}

/// The kernel's name of the calling thread (`/proc/thread-self/comm`, at most 15 bytes).
func kernelThreadName() -> String {
    let fd = open("/proc/thread-self/comm", O_RDONLY)
    guard fd >= 0 else { return "<unreadable>" }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(fd, &buffer, buffer.count)
    guard count > 0 else { return "<unreadable>" }
    var bytes = buffer.prefix(count)
    while bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
}

// MARK: - The main queue

/// Marks `DispatchQueue.main` so a handler can tell it runs there: under `swift test` on Linux the
/// main queue is drained by a thread for which `Thread.isMainThread` is false.
enum MainQueue {
    static let key = DispatchSpecificKey<Bool>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    /// Sets the mark once; call before posting anything that should land on main.
    static func prepare() { _ = marked }

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

// MARK: - Asynchronous delivery targets

/// The targets that hand off: one value per case, so tests can be parameterised over them.
enum AsyncTargetKind: String, CaseIterable, Sendable {
    case dispatchQueue, thread, main
}

/// An asynchronous target plus what a test needs around it: a way to tell whether code runs
/// there, to queue work behind or in front of deliveries, and to wait until it has drained.
final class AsyncTarget: @unchecked Sendable {  // all stored properties are immutable
    let kind: AsyncTargetKind
    let target: DeliveryTarget
    private let queueKey = DispatchSpecificKey<Bool>()
    private let queue: DispatchQueue?
    let deliveryThread: DeliveryThread?

    init(_ kind: AsyncTargetKind) {
        self.kind = kind
        switch kind {
        case .dispatchQueue:
            let queue = DispatchQueue(label: "notifykit.tests.async")
            queue.setSpecific(key: queueKey, value: true)
            self.queue = queue
            deliveryThread = nil
            target = .dispatchQueue(queue)
        case .thread:
            let thread = DeliveryThread(name: "tests.async")
            queue = nil
            deliveryThread = thread
            target = .thread(thread)
        case .main:
            MainQueue.prepare()
            queue = nil
            deliveryThread = nil
            target = .main
        }
    }

    /// True when the caller runs on this target.
    var isCurrent: Bool {
        switch kind {
        case .dispatchQueue: DispatchQueue.getSpecific(key: queueKey) == true
        case .thread: NotifyThread.current.id == deliveryThread!.thread.id
        case .main: MainQueue.isCurrent
        }
    }

    /// Runs `work` on the target after everything handed to it so far.
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        switch kind {
        case .dispatchQueue: queue!.async(execute: work)
        case .thread: deliveryThread!.perform(work)
        case .main: DispatchQueue.main.async(execute: work)
        }
    }

    /// Occupies the target until the returned semaphore is signalled (or `patience` passes).
    func block() -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        enqueue {
            started.signal()
            _ = wait(gate)
        }
        _ = wait(started)
        return gate
    }

    /// Waits until everything handed to the target so far has run; false on timeout.
    func drain() -> Bool {
        let done = DispatchSemaphore(value: 0)
        enqueue { done.signal() }
        return wait(done)
    }
}

// MARK: - Probe events

extension InMemoryProbe {
    var registrations: [ProbeEvent.Registration] {
        events.compactMap { if case .registered(let r) = $0.kind { r } else { nil } }
    }

    var posts: [ProbeEvent.Post] {
        events.compactMap { if case .posted(let p) = $0.kind { p } else { nil } }
    }

    /// Deliveries with the thread each one was reported on (the delivering thread).
    var deliveries: [(delivery: ProbeEvent.Delivery, thread: UInt64)] {
        events.compactMap { if case .delivered(let d) = $0.kind { (d, $0.thread) } else { nil } }
    }

    var removals: [(registration: UInt64, reason: ProbeEvent.RemovalReason)] {
        events.compactMap { if case .removed(let id, let reason, _) = $0.kind { (id, reason) } else { nil } }
    }

    var droppedTokens: [UInt64] {
        events.compactMap { if case .tokenDropped(let id) = $0.kind { id } else { nil } }
    }

    var missedRemovals: [ProbeEvent.MissedRemoval] {
        events.compactMap { if case .removeMissed(let m) = $0.kind { m } else { nil } }
    }

    /// Why `registration` ended, if it did.
    func removalReasons(of registration: UInt64) -> [ProbeEvent.RemovalReason] {
        removals.filter { $0.registration == registration }.map(\.reason)
    }
}

/// Attaches a fresh `InMemoryProbe` to `center` for the length of `body`.
func withProbe<Result>(on center: NotifyCenter, _ body: (InMemoryProbe) throws -> Result) rethrows -> Result {
    let probe = InMemoryProbe()
    let attachment = center.attach(probe)
    defer { attachment.detach() }
    return try body(probe)
}

/// `withProbe` for async bodies.
func withProbe<Result>(
    on center: NotifyCenter, _ body: (InMemoryProbe) async throws -> Result
) async rethrows -> Result {
    let probe = InMemoryProbe()
    let attachment = center.attach(probe)
    defer { attachment.detach() }
    return try await body(probe)
}

/// This file's `#fileID`, as callsites report it.
func currentFileID(_ id: StaticString = #fileID) -> String { id.description }
