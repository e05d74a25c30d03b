import NotifySystem
import NotifyTestSupport
import NotifyWire
@testable import NotifyModel
import Testing

/// The model's clock is the events' clock: rates, level samples, retirement and checkpoints run on
/// a fixed grid of event time, so how the events are batched or ticked changes nothing.
@Suite("Event clock")
struct EventClockTests {
    static let second = TraceScript.second

    /// 40 s of stream: a registration at one callsite every second (never removed: R6), an
    /// observer of a name nobody posts (R10), a post every 250 ms, a removal that retires, and a
    /// quiet stretch carried only by clock lines.
    static var script: TraceScript {
        var s = TraceScript()
        s.register(1, "neverSent", site: 60)
        s.register(2, "short", site: 61)
        s.remove(2)
        var id: UInt64 = 10
        for second in 0..<30 {
            s.register(id, "grows", site: 50)
            id += 1
            for quarter in 0..<4 {
                s.advance(Self.second / 4)
                s.post("other", matched: 0)
                if second == 20 && quarter == 0 { s.postAndDeliver("grows", to: [10]) }
            }
        }
        for _ in 0..<10 {
            s.advance(Self.second)
            s.tick()
        }
        return s
    }

    /// What must be equal, however the trace was folded.
    struct Outcome: Equatable, CustomStringConvertible {
        var findings: [LeakFinding]
        var overview: InspectorOverview
        var checkpoints: UInt64
        var registrations: [ObserverRow]
        var description: String {
            "\(checkpoints) checkpoints, findings "
                + findings.map { "\($0.rule.code) \($0.key) \($0.severity)" }
                .joined(separator: ", ")
        }

        init(_ state: InspectorState) {
            findings = state.findings
            overview = state.overview
            checkpoints = state.checkpoints
            registrations = state.registrations
        }
    }

    static func oneByOne(_ events: [TraceEvent]) -> InspectorState {
        var state = InspectorState()
        for event in events { state.apply(event) }
        return state
    }

    @Test("one batch, one event at a time, a tick after every event, or ticks at random times: the same state")
    func batchingChangesNothing() {
        let events = Self.script.events
        let reference = Outcome(Self.oneByOne(events))
        #expect(reference.findings.contains { $0.rule == .registrationGrowth && $0.isOpen }, "\(reference)")
        #expect(reference.findings.contains { $0.rule == .neverPosted && $0.isOpen }, "\(reference)")
        #expect(reference.checkpoints == 8, "\(reference)")  // 40 s of stream at one per 5 s

        var batch = InspectorState()
        batch.apply(events)
        batch.tick(now: events.last?.timestamp ?? 0)  // the old batch replay's single tick at the end
        #expect(Outcome(batch) == reference)

        var ticked = InspectorState()
        for event in events {
            ticked.apply(event)
            if let time = event.timestamp { ticked.tick(now: time) }
        }
        #expect(Outcome(ticked) == reference)

        // Ticks at arbitrary times, never ahead of the next event, as a replay's clock or a
        // redraw might bring them.
        var random = SplitMix64(seed: 7)
        var jittered = InspectorState()
        var latest: UInt64?
        for event in events {
            if let time = event.timestamp, let previous = latest, time > previous, Bool.random(using: &random) {
                jittered.tick(now: UInt64.random(in: previous...time, using: &random))
            }
            jittered.apply(event)
            if let time = event.timestamp { latest = max(latest ?? 0, time) }
        }
        #expect(Outcome(jittered) == reference)
    }

    @Test(
        "a prefix folded in chunks of any size ends where folding it event by event ends",
        arguments: [1, 7, 500, 100_000])
    func chunkSizes(chunk: Int) {
        let events = Self.script.events
        var state = InspectorState()
        var index = 0
        while index < events.count {
            state.apply(events[index..<min(events.count, index + chunk)])
            index += chunk
        }
        #expect(Outcome(state) == Outcome(Self.oneByOne(events)))
    }

    @Test(
        "stream time moves only with events: quiet periods pass through clock lines, and a tick never runs past the next event's work"
    )
    func clockLinesCarryQuietTime() {
        var s = TraceScript()
        s.register(1, "neverSent", site: 60)
        var withoutClock = InspectorState()
        withoutClock.apply(s.events)
        for _ in 0..<40 {
            s.advance(Self.second)
            s.tick()
        }
        let state = Self.oneByOne(s.events)
        #expect(state.now == TraceScript.start + 40 * Self.second)
        #expect(state.checkpoints == 8)
        #expect(state.open(.neverPosted).count == 1)
        #expect(state.totals.events == withoutClock.totals.events)  // clock lines are not events
        #expect(withoutClock.checkpoints == 0)
        #expect(withoutClock.open(.neverPosted).isEmpty)
    }

    @Test("a timestamp at the end of the clock's range (a corrupt line) ends the fold's grid work instead of looping")
    func clockRangeEnd() {
        var s = TraceScript()
        s.register(1, "n", site: 70)
        s.advance(UInt64.max - TraceScript.start - 1)
        s.tick()
        s.advance(1)
        s.tick()
        s.register(2, "n", site: 70)
        let state = Self.oneByOne(s.events)
        #expect(state.now == .max)
        #expect(state.liveRegistrations == 2)
        #expect(state.checkpoints == UInt64(InspectorState.checkpointsPerJump))
    }

    @Test("level sparklines keep the level each second ended at, whatever the batching")
    func levelsOnTheGrid() {
        var s = TraceScript()
        for id in 1...3 {
            s.register(UInt64(id), "n\(id)", site: 70)
            s.advance(Self.second)
        }
        s.tick()
        let state = Self.oneByOne(s.events)
        #expect(state.levelWindows.observers.recentBuckets == [1, 2, 3])
    }
}
