import Foundation
@testable import NotifyKit
import Testing

/// Probed posts time handlers with the CPU's counter converted to CLOCK_MONOTONIC nanoseconds;
/// these pin that the conversion keeps to the clock every other event is stamped with.
@Suite struct TickClockTests {
    @Test("a thread's counter clock reads between two CLOCK_MONOTONIC readings taken around it")
    func counterClockTracksMonotonicClock() {
        let context = ThreadContext.current
        // Long enough to cross many anchors (one per millisecond).
        let until = MonotonicClock.now() + 30_000_000
        var worst: Int64 = 0
        var readings = 0
        while MonotonicClock.now() < until {
            let before = MonotonicClock.now()
            let reading = context.now()
            let after = MonotonicClock.now()
            let outside = max(Int64(before) - Int64(reading), Int64(reading) - Int64(after), 0)
            worst = max(worst, outside)
            readings += 1
        }
        #expect(readings > 100)
        #expect(worst <= 2_000, "a reading fell \(worst) ns outside the CLOCK_MONOTONIC readings around it")
    }

    @Test("a rate converts a second of ticks to a second of nanoseconds and refuses nonsense")
    func rateConvertsTicks() throws {
        let rate = try #require(TickClock.Rate(ticksPerSecond: 2_445_406_000))
        #expect(rate.anchorSpan == 2_445_406)
        let millisecond = rate.nanos(inTicks: rate.anchorSpan)
        #expect((999_999...1_000_001).contains(millisecond))
        #expect(TickClock.Rate(ticksPerSecond: 0) == nil)
        #expect(TickClock.Rate(ticksPerSecond: .nan) == nil)
        #expect(TickClock.Rate(ticksPerSecond: .infinity) == nil)
    }

    @Test("a handler that runs 3 ms is reported as at least that, and no longer than the post took")
    func deliveryDurationMatchesHandlerTime() throws {
        let center = NotifyCenter()
        let measured = Counter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            let start = MonotonicClock.now()
            while MonotonicClock.now() - start < 3_000_000 {}
            measured.add(Int(MonotonicClock.now() - start))
        }
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        let postStart = MonotonicClock.now()
        center.post(name: .testN)
        let postTime = MonotonicClock.now() - postStart
        attachment.detach()
        token.cancel()
        let delivery = try #require(
            probe.events.compactMap { event -> ProbeEvent.Delivery? in
                if case .delivered(let delivery) = event.kind { return delivery }
                return nil
            }.first)
        let handlerTime = UInt64(measured.value)
        #expect(delivery.duration >= handlerTime - 2_000, "reported \(delivery.duration) ns for \(handlerTime) ns")
        // The duration also covers handing the post's event to the probe, where a busy machine may
        // preempt the thread; only the post's own span bounds it from above.
        #expect(delivery.duration <= postTime + 2_000, "reported \(delivery.duration) ns in a \(postTime) ns post")
    }
}
