// A Foundation-only app for foundation-e2e.sh's typed message phase: it knows nothing of notifytop.
// It waits until the file named by its first argument exists (the probes are attached), then
// observes and posts swift-foundation's typed messages: a MainActorMessage with 120 observers and
// one with 1,000 (each added from one line, one closure), four local message types whose
// Foundation names read alike up to 63 bytes, an AsyncMessage with 3 observers (their runs waited
// for), an AsyncMessage read through 4 sequences (`messages(for:)`, each ending after 5 messages)
// and started by 3 more that are dropped unread, and a MainActorMessage observer added every
// second and never removed (growth, R6). It prints its own counts for the checker, then stays
// alive until the file is gone.
import Foundation

final class Cart: Sendable {}
struct HundredsChanged: NotificationCenter.MainActorMessage { typealias Subject = Cart }
struct ThousandChanged: NotificationCenter.MainActorMessage { typealias Subject = Cart }
struct OrderFetched: NotificationCenter.AsyncMessage { typealias Subject = Cart }
struct LeakyChanged: NotificationCenter.MainActorMessage { typealias Subject = Cart }
struct OrderShipped: NotificationCenter.AsyncMessage { typealias Subject = Cart }

let center = NotificationCenter.default
let lock = NSLock()
nonisolated(unsafe) var delivered: [String: Int] = [:]
func count(_ name: String) {
    lock.lock()
    delivered[name, default: 0] += 1
    lock.unlock()
}
func counted(_ name: String) -> Int {
    lock.lock()
    defer { lock.unlock() }
    return delivered[name] ?? 0
}

/// Four message types local to this function: Foundation names each
/// `app.(unknown context at $ADDRESS).(unknown context at $ADDRESS).NAME`, alike in their first 63 bytes.
@MainActor func localMessages() -> [String] {
    struct LocalMessageFirst: NotificationCenter.MainActorMessage { typealias Subject = Cart }
    struct LocalMessageSecond: NotificationCenter.MainActorMessage { typealias Subject = Cart }
    struct LocalMessageThird: NotificationCenter.MainActorMessage { typealias Subject = Cart }
    struct LocalMessageFourth: NotificationCenter.MainActorMessage { typealias Subject = Cart }
    let tokens = [
        center.addObserver(for: LocalMessageFirst.self) { _ in count("LocalMessageFirst") },
        center.addObserver(for: LocalMessageSecond.self) { _ in count("LocalMessageSecond") },
        center.addObserver(for: LocalMessageThird.self) { _ in count("LocalMessageThird") },
        center.addObserver(for: LocalMessageFourth.self) { _ in count("LocalMessageFourth") },
    ]
    center.post(LocalMessageFirst())
    for _ in 0..<2 { center.post(LocalMessageSecond()) }
    for _ in 0..<3 { center.post(LocalMessageThird()) }
    for _ in 0..<4 { center.post(LocalMessageFourth()) }
    // The first removed, the others released with their tokens: none stays live.
    center.removeObserver(tokens[0])
    return ["LocalMessageFirst", "LocalMessageSecond", "LocalMessageThird", "LocalMessageFourth"].map {
        "\($0) \(counted($0))"
    }
}

/// `readers` sequences each read `count` messages of `OrderShipped` posted `count` times once all
/// are iterating, and `dropped` more start their observation and end unread; then one more post,
/// which no sequence hears. Returns the messages the readers received.
func readSequences(readers: Int, count: Int, dropped: Int) -> Int {
    let done = DispatchSemaphore(value: 0)
    let state = NSLock()
    nonisolated(unsafe) var ready = 0
    nonisolated(unsafe) var received = 0
    for _ in 0..<dropped {
        let iterator = center.messages(for: OrderShipped.self).makeAsyncIterator()
        withExtendedLifetime(iterator) {}
    }
    for _ in 0..<readers {
        Task.detached {
            var iterator = center.messages(for: OrderShipped.self, bufferSize: count).makeAsyncIterator()
            state.withLock { ready += 1 }
            for _ in 0..<count where await iterator.next(isolation: nil) != nil { state.withLock { received += 1 } }
            done.signal()
        }
    }
    for _ in 0..<500 where state.withLock({ ready }) < readers { usleep(10_000) }
    for _ in 0..<count { center.post(OrderShipped()) }
    for _ in 0..<readers { _ = done.wait(timeout: .now() + 10) }
    usleep(100_000)
    center.post(OrderShipped())
    return state.withLock { received }
}

let arguments = CommandLine.arguments
let goFile = arguments.count > 1 ? arguments[1] : "/nonexistent"
print("pid \(getpid())")
fflush(stdout)
for _ in 0..<600 where !FileManager.default.fileExists(atPath: goFile) { usleep(50_000) }

nonisolated(unsafe) var tokens: [NotificationCenter.ObservationToken] = []
let hundreds = 120
let thousand = 1_000
let locals = MainActor.assumeIsolated {
    for _ in 0..<hundreds { tokens.append(center.addObserver(for: HundredsChanged.self) { _ in count("Hundreds") }) }
    for _ in 0..<thousand { tokens.append(center.addObserver(for: ThousandChanged.self) { _ in count("Thousand") }) }
    for _ in 0..<3 {
        tokens.append(
            center.addObserver(for: OrderFetched.self) { _ in
                count("OrderFetched")
                await Task.yield()
            })
    }
    // Paced, so that a loaded machine's bpftrace keeps every line of a post's thousand deliveries.
    for _ in 0..<5 {
        center.post(HundredsChanged())
        usleep(100_000)
    }
    for _ in 0..<3 {
        center.post(ThousandChanged())
        usleep(500_000)
    }
    for _ in 0..<4 { center.post(OrderFetched()) }
    return localMessages()
}
for _ in 0..<200 where counted("OrderFetched") < 12 { usleep(10_000) }
let sequenceReaders = 4
let sequenceMessages = 5
let droppedSequences = 3
let sequenceReceived = readSequences(readers: sequenceReaders, count: sequenceMessages, dropped: droppedSequences)
print("typed app.HundredsChanged \(hundreds) 5 \(counted("Hundreds"))")
print("typed app.ThousandChanged \(thousand) 3 \(counted("Thousand"))")
print("async app.OrderFetched 3 4 \(counted("OrderFetched"))")
print("locals \(locals.joined(separator: " "))")
print(
    "sequence app.OrderShipped \(sequenceReaders) \(sequenceMessages) \(sequenceReceived) \(droppedSequences)")
fflush(stdout)
// Growth: one more observer every second, never removed.
let leaks = arguments.count > 2 ? Int(arguments[2])! : 22
for _ in 0..<leaks {
    MainActor.assumeIsolated {
        tokens.append(center.addObserver(for: LeakyChanged.self) { _ in count("Leaky") })  // leaky-add
        center.post(LeakyChanged())
    }
    usleep(1_000_000)
}
print("leaky app.LeakyChanged \(leaks)")
print("done")
fflush(stdout)
for _ in 0..<600 where FileManager.default.fileExists(atPath: goFile) { usleep(50_000) }
withExtendedLifetime(tokens) {}
