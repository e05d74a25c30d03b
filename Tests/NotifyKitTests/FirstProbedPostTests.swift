import Dispatch
import Foundation
@testable import NotifyKit
import Testing

private let first = Notification.Name("tests.first-post.first")
private let nested = Notification.Name("tests.first-post.nested")

/// A thread's first probed post makes its ring; the handler timed around it must not pay for that.
@Suite struct FirstProbedPostTests {
    /// Rings this large take long to make (their chunk tables are filled in), next to an empty
    /// handler's run.
    static let capacity = 1 << 22

    /// Nanoseconds to make one ring of ``capacity`` records on this thread.
    static func ringCost() -> UInt64 {
        let start = MonotonicClock.now()
        let ring = ProbeRecordRing(thread: 0, recorderID: 0, capacity: capacity)
        let cost = MonotonicClock.now() - start
        withExtendedLifetime(ring) {}
        return cost
    }

    /// Posts `first` on a thread that never posted, to an observer delivered inline or on an
    /// operation queue whose handler posts `nested` (so its thread's first probed post happens
    /// inside the timed handler); returns the first delivery's duration.
    static func firstDuration(handedOff: Bool) -> UInt64? {
        let center = NotifyCenter()
        let probe = InMemoryProbe(capacityPerThread: capacity)
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        let queue = OperationQueue()
        let token =
            handedOff
            ? center.addObserver(forName: first, object: nil, queue: queue) { _ in center.post(name: nested) }
            : center.addObserver(forName: first, object: nil, queue: nil) { _ in }
        defer { center.removeObserver(token) }
        let done = DispatchSemaphore(value: 0)
        Thread {
            center.post(name: first)
            done.signal()
        }.start()
        done.wait()
        return probe.events.lazy.compactMap { event -> UInt64? in
            guard case .delivered(let delivery) = event.kind, delivery.name == first.rawValue else { return nil }
            return delivery.duration
        }.first
    }

    @Test(
        "the first handler's duration does not include making the thread's ring",
        arguments: [false, true])
    func ringIsMadeBeforeTheClockIsRead(handedOff: Bool) {
        // A handler charged for the ring lasts at least as long as making one; an empty handler
        // lasts a fraction of it (a third or more under ThreadSanitizer, whose handed-off handler
        // posts too). A stall of the machine can lengthen any one run, so the first of five that
        // takes less than half is enough.
        var outcomes: [(duration: UInt64, ringCost: UInt64)] = []
        for _ in 0..<5 {
            let cost = Self.ringCost()
            guard let duration = Self.firstDuration(handedOff: handedOff) else { break }
            outcomes.append((duration, cost))
            if duration * 2 < cost { break }
        }
        #expect(outcomes.contains { $0.duration * 2 < $0.ringCost }, "durations and ring costs, ns: \(outcomes)")
    }
}
