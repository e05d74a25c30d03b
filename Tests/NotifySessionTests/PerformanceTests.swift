import NotifyModel
import NotifySession
import NotifyTUI
import NotifyTUITestSupport
import Testing
import Glibc

struct PerformanceTests {
    @Test("one frame of Names and Observers with 10k registrations (printed; the 5 ms bar is for release builds)")
    func tenThousandRegistrations() {
        let session = DashboardSession(source: .fixed(Fixture.events(registrations: 10_000)))
        #expect(session.model.liveRegistrations >= 10_000)
        for view in [ViewID.names, .observers] {
            session.view = ViewState(view: view)
            _ = session.render(size: Size(width: 120, height: 40), glyphs: .unicode)
            var best = UInt64.max
            for _ in 0..<5 {
                var start = timespec(), end = timespec()
                clock_gettime(CLOCK_MONOTONIC, &start)
                _ = session.render(size: Size(width: 120, height: 40), glyphs: .unicode)
                clock_gettime(CLOCK_MONOTONIC, &end)
                let nanos = UInt64((end.tv_sec - start.tv_sec) * 1_000_000_000 + (end.tv_nsec - start.tv_nsec))
                best = min(best, nanos)
            }
            print("frame render \(view.title) with 10k registrations: \(Double(best) / 1e6) ms")
            #expect(best < 500_000_000)
        }
    }
}
