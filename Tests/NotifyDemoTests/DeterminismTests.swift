import NotifyDemo
import NotifyKit
import Testing

@Suite("Same seed, same run")
struct DeterminismTests {
    @Test("the same seed gives the same sequence of registrations, posts, deliveries and removals")
    func sameSeedSameEvents() {
        let configuration = DemoConfiguration(scenario: .steady, seed: 42, slowHandlerMilliseconds: 0)
        let first = RecordedDemoRun.record(configuration, steps: 600)
        let second = RecordedDemoRun.record(configuration, steps: 600)
        #expect(first.events.count > 1_000)
        #expect(first.signature == second.signature)
        if first.signature != second.signature {
            let pairs = zip(first.signature, second.signature).enumerated()
            let index =
                pairs.first { $0.element.0 != $0.element.1 }?.offset
                ?? min(first.signature.count, second.signature.count) - 1
            Issue.record("first difference at event \(index): \(first.signature[index]) vs \(second.signature[index])")
        }
    }

    @Test("a different seed gives a different sequence")
    func differentSeedDiffers() {
        let first = RecordedDemoRun.record(DemoConfiguration(scenario: .quiet, seed: 1), steps: 300)
        let second = RecordedDemoRun.record(DemoConfiguration(scenario: .quiet, seed: 2), steps: 300)
        #expect(first.signature != second.signature)
    }
}
