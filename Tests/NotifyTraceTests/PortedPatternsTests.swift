import Foundation
import NotifyKit
import NotifyModel
import NotifySystem
import NotifyTestSupport
@testable import NotifyTraceApp
import NotifyTraceViewer
import NotifyWire
import Synchronization
import Testing

/// The subject of the typed message below.
final class PortedBasket: Sendable {}

/// A main-actor message heard by a crowd of observers.
struct PortedBasketEmptied: NotifyCenter.MainActorMessage {
    typealias Subject = PortedBasket
}

/// An async message read through sequences.
struct PortedBasketShipped: NotifyCenter.AsyncMessage {
    typealias Subject = PortedBasket
}

/// How many sequence readers have started observing.
private final class PortedReaders: Sendable {
    let started = Mutex(0)
}

/// What the app counted itself: posts and handler runs per name, and observers it left registered.
private final class PortedTruth: @unchecked Sendable {  // `counts` is locked
    private let counts = Mutex<[String: (posts: Int, runs: Int)]>([:])
    private(set) var live: [String: Int] = [:]

    func posted(_ name: String, times: Int = 1) { counts.withLock { $0[name, default: (0, 0)].posts += times } }
    func ran(_ name: String) { counts.withLock { $0[name, default: (0, 0)].runs += 1 } }
    func leaves(_ name: String, live count: Int) { live[name] = count }

    var posts: [String: Int] { counts.withLock { $0.compactMapValues { $0.posts > 0 ? $0.posts : nil } } }
    var runs: [String: Int] { counts.withLock { $0.compactMapValues { $0.runs > 0 ? $0.runs : nil } } }
}

/// An app's code with the patterns real programs have, ported from Foundation by renaming
/// `NotificationCenter` to `NotifyCenter` (its private centers get labels, so this test's inspector
/// can take them alone): private centers made and dropped with observers still registered, one
/// name under several object filters, closures churned across names and centers, a typed message
/// heard by 150 observers, an async message read through sequences, a removal from the wrong
/// center and an unpaced burst. The dashboard's
/// figures must equal the app's own counts.
extension SeveralCentersTests {
    @Test("an app ported by the rename: every center's figures equal the app's own counts")
    func portedPatterns() async throws {
        let temporary = TemporaryDirectory()
        let tag = "ported-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let center = NotifyCenter(label: "\(tag).main")
        let inspector = try NotifyInspector.start(
            center: center, others: .labeled(prefix: "\(tag)."), directory: temporary.socketDirectory,
            ringCapacity: 1 << 16)
        defer { inspector.stop() }
        nonisolated(unsafe) let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        _ = reader.read(until: { _ in reader.header != nil })
        let done = Notification.Name("\(tag).done")
        async let read = awaitingDedicatedThread {
            reader.read(
                until: { event in
                    if case .posted(let post) = event { post.name == done.rawValue } else { false }
                }, seconds: 60)
        }

        let truth = PortedTruth()
        func name(_ base: String) -> Notification.Name { Notification.Name("\(tag).\(base)") }

        // Private centers dropped with their observer still registered.
        for index in 0..<4 {
            let dying = NotifyCenter(label: "\(tag).dying-\(index)")
            let token = dying.addObserver(forName: name("Dying"), object: nil, queue: nil) { _ in truth.ran("Dying") }
            dying.post(name: name("Dying"), object: nil)
            truth.posted("Dying")
            withExtendedLifetime(token) {}
        }
        // One name under two object filters.
        let senders = (NSObject(), NSObject())
        let first = center.addObserver(forName: name("Filtered"), object: senders.0, queue: nil) { _ in
            truth.ran("Filtered")
        }
        let second = center.addObserver(forName: name("Filtered"), object: senders.1, queue: nil) { _ in
            truth.ran("Filtered")
        }
        for _ in 0..<2 { center.post(name: name("Filtered"), object: senders.0) }
        for _ in 0..<3 { center.post(name: name("Filtered"), object: senders.1) }
        center.removeObserver(first)
        center.post(name: name("Filtered"), object: senders.0)
        center.post(name: name("Filtered"), object: senders.1)
        truth.posted("Filtered", times: 7)
        center.removeObserver(second)
        // Closures churned across names, and across private centers made one at a time.
        for index in 0..<20 {
            let churned = index % 2 == 0 ? "ChurnEven" : "ChurnOdd"
            let token = center.addObserver(forName: name(churned), object: nil, queue: nil) { _ in truth.ran(churned) }
            center.post(name: name(churned), object: nil)
            truth.posted(churned)
            center.removeObserver(token)
            let privateName = index % 2 == 0 ? "PrivateEven" : "PrivateOdd"
            let privateCenter = NotifyCenter(label: "\(tag).private")
            let kept = privateCenter.addObserver(forName: name(privateName), object: nil, queue: nil) { _ in
                truth.ran(privateName)
            }
            privateCenter.post(name: name(privateName), object: nil)
            truth.posted(privateName)
            privateCenter.removeObserver(kept)
        }
        // A typed message heard by 150 observers, who stay.
        let basket = PortedBasket()
        let crowd = await MainActor.run {
            let tokens = (0..<150).map { _ in
                center.addObserver(of: basket, for: PortedBasketEmptied.self) { _ in truth.ran("PortedBasketEmptied") }
            }
            for _ in 0..<3 { center.post(PortedBasketEmptied(), subject: basket) }
            return tokens
        }
        truth.posted("PortedBasketEmptied", times: 3)
        truth.leaves("PortedBasketEmptied", live: 150)
        // An async message read through three sequences, each ending after the four posts.
        let reading = PortedReaders()
        let readers = (0..<3).map { _ in
            Task {
                var iterator = center.messages(of: basket, for: PortedBasketShipped.self, bufferSize: 4)
                    .makeAsyncIterator()
                reading.started.withLock { $0 += 1 }
                for _ in 0..<4 where await iterator.next(isolation: nil) != nil { truth.ran("PortedBasketShipped") }
            }
        }
        let readyBy = ContinuousClock.now + .seconds(20)
        while reading.started.withLock({ $0 }) < 3, ContinuousClock.now < readyBy {
            try await Task.sleep(for: .milliseconds(5))
        }
        for _ in 0..<4 { center.post(PortedBasketShipped(), subject: basket) }
        truth.posted("PortedBasketShipped", times: 4)
        let readBy = ContinuousClock.now + .seconds(20)
        while truth.runs["PortedBasketShipped", default: 0] < 12, ContinuousClock.now < readBy {
            try await Task.sleep(for: .milliseconds(5))
        }
        for reader in readers {
            reader.cancel()
            await reader.value
        }
        // A token removed from a center that does not hold it, then from its own.
        let other = NotifyCenter(label: "\(tag).other")
        let misplaced = other.addObserver(forName: name("WrongCenter"), object: nil, queue: nil) { _ in
            truth.ran("WrongCenter")
        }
        center.removeObserver(misplaced)
        other.post(name: name("WrongCenter"), object: nil)
        truth.posted("WrongCenter")
        other.removeObserver(misplaced)
        // An unpaced burst to one observer, which stays.
        let burst = center.addObserver(forName: name("Burst"), object: nil, queue: nil) { _ in truth.ran("Burst") }
        for _ in 0..<3_000 { center.post(name: name("Burst"), object: nil) }
        truth.posted("Burst", times: 3_000)
        truth.leaves("Burst", live: 1)
        center.post(name: done, object: nil)

        let events = await read
        var state = InspectorState()
        if let header = reader.header { state.apply(.header(header)) }
        state.apply(events)
        let prefix = "\(tag)."
        let rows = state.names.filter { $0.name.hasPrefix(prefix) && !$0.isWildcard }
        func short(_ row: NameRow) -> String { String(row.name.dropFirst(prefix.count)) }
        let posts = Dictionary(rows.filter { $0.posts > 0 }.map { (short($0), Int($0.posts)) }, uniquingKeysWith: +)
        let runs = Dictionary(
            rows.filter { $0.deliveries > 0 }.map { (short($0), Int($0.deliveries)) }, uniquingKeysWith: +)
        let live = Dictionary(
            rows.filter { $0.liveObservers > 0 }.map { (short($0), $0.liveObservers) }, uniquingKeysWith: +)
        // The typed messages' rows are named by their types, not the tag.
        var shownPosts = posts
        var shownRuns = runs
        var shownLive = live
        shownPosts["done"] = nil
        for message in ["PortedBasketEmptied", "PortedBasketShipped"] {
            guard let typed = state.names.first(where: { $0.name.hasSuffix(message) }) else { continue }
            shownPosts[message] = Int(typed.posts)
            shownRuns[message] = typed.deliveries > 0 ? Int(typed.deliveries) : nil
            shownLive[message] = typed.liveObservers > 0 ? typed.liveObservers : nil
        }
        #expect(state.eventsLost == 0)
        #expect(shownPosts == truth.posts)
        #expect(shownRuns == truth.runs)
        #expect(shownLive == truth.live)
        #expect(
            state.findings.contains { $0.rule == .missedRemoval && $0.evidence.name == name("WrongCenter").rawValue })
        #expect(
            !state.findings.contains {
                $0.rule == .duplicateRegistration && $0.evidence.name?.hasPrefix(prefix) == true
            })
        withExtendedLifetime((crowd, burst, other)) {}
    }
}
