import NotifyBenchmarks
import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// Feeds many events and checks every table stays under its cap, and that the model says what it
/// dropped.
@Suite struct BoundedMemoryTests {
    static var small: InspectorConfiguration {
        var configuration = InspectorConfiguration()
        configuration.threadLogCapacity = 8
        configuration.maximumRemovedRegistrations = 50
        configuration.maximumNames = 40
        configuration.maximumThreads = 16
        configuration.maximumObjects = 100
        configuration.maximumFindings = 32
        configuration.rateHistoryLength = 10
        return configuration
    }

    @Test("registration churn keeps at most the cap of removed rows")
    func removedRowsCapped() {
        var s = TraceScript()
        for id in 1...1_000 {
            s.register(UInt64(id), "a")
            s.remove(UInt64(id))
        }
        let state = s.fold(Self.small)
        #expect(state.registrations.count <= 51)
        #expect(state.footprint.removedRegistrations <= 51)
        #expect(state.detailLoss.registrationsEvictedByCap >= 949)
        #expect(state.detailLoss.any)
        #expect(state.totals.registrations == 1_000)
    }

    @Test("an endless stream of new names keeps the name table near its cap")
    func namesCapped() {
        var s = TraceScript()
        s.register(1, "kept")
        for index in 0..<2_000 { s.post("dynamic-\(index)", matched: 1) }
        let state = s.fold(Self.small)
        #expect(state.names.count <= 41 + 10)
        #expect(state.name("kept")?.liveObservers == 1)
        #expect(state.detailLoss.forgottenNames > 1_900)
    }

    @Test("an endless stream of new threads keeps the thread table under its cap")
    func threadsCapped() {
        var s = TraceScript()
        s.register(1, "a")
        for thread in 3...500 {
            s.thread(UInt64(thread))
            let post = s.post("a", matched: 1, thread: UInt64(thread))
            s.deliver(post, to: 1, name: "a", thread: UInt64(thread), postingThread: UInt64(thread))
        }
        let state = s.fold(Self.small)
        #expect(state.threads.count <= 16)
        #expect(state.detailLoss.forgottenThreads >= 484)
        #expect(state.totals.deliveries == 498)
    }

    @Test("object definitions past the cap are forgotten unless a registration uses them")
    func objectsCapped() {
        var s = TraceScript()
        s.register(1, "a", kind: .target, observer: 5)
        for object in 1_000..<1_500 { s.object(UInt64(object), type: "App.Sender") }
        s.register(2, "b", kind: .target, observer: 5)
        let state = s.fold(Self.small)
        #expect(state.detailLoss.forgottenObjects > 300)
        #expect(state.registration(2)?.observer?.typeName == "App.Screen")
    }

    @Test("a flood of distinct unheard names keeps the findings under their cap")
    func findingsCapped() {
        var s = TraceScript()
        for index in 0..<500 {
            s.register(UInt64(index + 1), "nobody-\(index)")
            s.post("nobody-\(index)s", matched: 0)
        }
        let state = s.fold(Self.small)
        #expect(state.findings.count <= 32)
        #expect(state.detailLoss.droppedFindings >= 468)
    }

    @Test("once the caps are reached, a steady workload's footprint stays flat")
    func steadyFootprintIsFlat() {
        var configuration = InspectorConfiguration()
        configuration.maximumRemovedRegistrations = 500
        configuration.maximumObjects = 200
        configuration.maximumRemovalGaps = 200
        configuration.maximumFindings = 64
        configuration.explainLinkCapacity = 4_096
        let measurement = ModelBenchmark.measureMemory(
            eventCount: 100_000, sampleEvery: 10_000, configuration: configuration)
        let sizes = measurement.samples.map(\.footprint.estimatedBytes)
        #expect(sizes.count == 10)
        let settled = sizes.dropFirst(2)
        #expect(
            settled.max()! - settled.min()! < settled.min()! / 10,
            "\(measurement.samples.map(\.footprint.description).joined(separator: "\n"))")
        let last = measurement.samples.last!.footprint
        #expect(last.logEntries <= 8 * 128)
        #expect(last.registrations <= 256 + 500 + 1)
    }

    @Test("the benchmark's fold measurement counts every event")
    func foldMeasurement() {
        var clock: UInt64 = 0
        let measurement = ModelBenchmark.measureFold(eventCount: 20_000) {
            clock += 1_000_000
            return clock
        }
        #expect(measurement.events == 20_000)
        #expect(measurement.nanoseconds == 1_000_000)
        #expect(measurement.eventsPerSecond == 20_000_000_000 / 1_000)
        #expect(
            ModelBenchmark.FoldMeasurement(events: 2_000_000, nanoseconds: 512_000_000).description
                == "2000000 events in 0.512 s: 3.91M events/s")
    }

    @Test("the benchmark's cascade is the whole nested tree, every post under the handler that made it")
    func cascadeMeasurement() throws {
        var clock: UInt64 = 0
        let measured = ModelBenchmark.measureCascade(eventCount: 20_000, repeats: 2) {
            clock += 1_000
            return clock
        }
        #expect(measured.posts == 259)
        #expect(measured.deliveries == 777)
        #expect(measured.nanoseconds == 1_000)
        let (root, events) = ModelBenchmark.nestedCascade(after: 1_000_000_000)
        var state = InspectorState()
        for event in events { state.apply(event) }
        let cascade = try #require(state.cascade(post: root))
        #expect(cascade.root.unplaced.isEmpty)
        #expect(cascade.root.notes.isEmpty)
        #expect(cascade.notes.isEmpty)
        #expect(cascade.root.deliveries.map(\.nested.count) == [2, 2, 2])
        let deepest = cascade.root.deliveries[0].nested[0].deliveries[0].nested[0].deliveries[0].nested[0]
        #expect(deepest.post.depth == 4)
        #expect(deepest.deliveries.count == 3)
        #expect(deepest.deliveries.allSatisfy { $0.nested.isEmpty })
    }
}
