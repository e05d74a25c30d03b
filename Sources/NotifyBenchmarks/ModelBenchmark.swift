package import NotifyModel
package import NotifyWire

/// Fold throughput and memory of the model, for the shared benchmark (`notify-bench`) to call.
///
/// The targets: at least two million events folded per second on one core, and memory
/// flat after ten million events of a steady workload. The workload is deterministic and shaped
/// like a busy app (mostly posts and deliveries, with registration churn, dropped tokens, unheard
/// posts and new sender objects), so the caps and rules run, not just the counters. Clocks and
/// heap readings are passed in, keeping this module free of clock reads and I/O.
///
/// ```swift
/// let fold = ModelBenchmark.measureFold(eventCount: 2_000_000, now: MonotonicClock.now)
/// print(fold)  // "2000000 events in 0.512 s: 3.91M events/s"
/// let memory = ModelBenchmark.measureMemory(eventCount: 10_000_000, heapBytes: HeapUsage.bytesInUse)
/// print(memory)
/// ```
package enum ModelBenchmark {
    /// One timed fold.
    package struct FoldMeasurement: Sendable, CustomStringConvertible {
        /// Events folded.
        package var events: Int
        /// Wall time of the fold, from the injected clock.
        package var nanoseconds: UInt64

        /// Creates a measurement.
        package init(events: Int, nanoseconds: UInt64) {
            self.events = events
            self.nanoseconds = nanoseconds
        }

        /// Events per second: the figure the fold target is stated in.
        package var eventsPerSecond: Double {
            nanoseconds == 0 ? 0 : Double(events) * 1e9 / Double(nanoseconds)
        }

        /// `"2000000 events in 0.512 s: 3.91M events/s"`.
        package var description: String {
            "\(events) events in \(Self.fixed(Double(nanoseconds) / 1e9, 3)) s: "
                + "\(Self.fixed(eventsPerSecond / 1e6, 2))M events/s"
        }

        static func fixed(_ value: Double, _ decimals: Int) -> String {
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let scaled = Int((value * scale).rounded())
            let fraction = String(scaled % Int(scale))
            return "\(scaled / Int(scale))." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
    }

    /// The model's size at points along a long fold.
    package struct MemoryMeasurement: Sendable, CustomStringConvertible {
        /// One reading.
        package struct Sample: Sendable {
            /// Events folded so far.
            package var events: Int
            /// The model's own accounting.
            package var footprint: ModelFootprint
            /// The process's heap in use, if the caller could read it.
            package var heapBytes: Int?
        }

        /// Readings, in order.
        package var samples: [Sample]

        /// Heap growth from the second reading (after warm-up) to the last; nil without readings.
        package var heapGrowthAfterWarmUp: Int? {
            guard samples.count >= 2, let first = samples[1].heapBytes, let last = samples.last?.heapBytes else {
                return nil
            }
            return last - first
        }

        /// Estimated model growth over the same span.
        package var footprintGrowthAfterWarmUp: Int {
            guard samples.count >= 2, let last = samples.last else { return 0 }
            return last.footprint.estimatedBytes - samples[1].footprint.estimatedBytes
        }

        /// One line per reading, then the growth.
        package var description: String {
            var lines = samples.map { sample in
                "\(sample.events) events: " + (sample.heapBytes.map { "heap \($0 / 1024) KiB, " } ?? "")
                    + "model \(sample.footprint)"
            }
            lines.append(
                "growth after warm-up: model \(footprintGrowthAfterWarmUp / 1024) KiB"
                    + (heapGrowthAfterWarmUp.map { ", heap \($0 / 1024) KiB" } ?? ""))
            return lines.joined(separator: "\n")
        }
    }

    /// The first `count` events of the steady workload.
    package static func steadyEvents(count: Int) -> [TraceEvent] {
        var workload = SteadyWorkload()
        var events: [TraceEvent] = []
        events.reserveCapacity(count)
        for _ in 0..<count { events.append(workload.nextEvent()) }
        return events
    }

    /// Times folding `eventCount` steady-workload events into a fresh state on the calling thread,
    /// with a tick every 1,024 events as a viewer's loop does; the events are built before timing.
    ///
    /// - Parameter now: A monotonic clock in nanoseconds, such as NotifyKit's `MonotonicClock.now`.
    package static func measureFold(
        eventCount: Int = 2_000_000, configuration: InspectorConfiguration = InspectorConfiguration(),
        now: () -> UInt64
    ) -> FoldMeasurement {
        let events = steadyEvents(count: eventCount)
        var state = InspectorState(configuration: configuration)
        let start = now()
        var sinceTick = 0
        for event in events {
            state.apply(event)
            sinceTick += 1
            if sinceTick == 1_024 {
                sinceTick = 0
                if let time = event.timestamp { state.tick(now: time) }
            }
        }
        let elapsed = now() - start
        precondition(state.totals.events == UInt64(eventCount))
        return FoldMeasurement(events: eventCount, nanoseconds: elapsed)
    }

    /// Times folding a stream that registers `names` distinct names (``DistinctNamesWorkload``) into
    /// a fresh state on the calling thread, the events made as it goes (their making is timed too).
    ///
    /// - Parameter now: A monotonic clock in nanoseconds, such as NotifyKit's `MonotonicClock.now`.
    package static func measureDistinctNames(
        names: Int, configuration: InspectorConfiguration = InspectorConfiguration(), now: () -> UInt64
    ) -> (fold: FoldMeasurement, state: InspectorState) {
        var workload = DistinctNamesWorkload()
        var state = InspectorState(configuration: configuration)
        var events = 0
        let start = now()
        while state.totals.registrations < UInt64(names) {
            state.apply(workload.nextEvent())
            events += 1
        }
        return (FoldMeasurement(events: events, nanoseconds: now() - start), state)
    }

    /// Folds `eventCount` steady-workload events, generated as it goes, and reads the footprint
    /// (and the heap, through `heapBytes`) every `sampleEvery` events.
    ///
    /// - Parameter heapBytes: Bytes the process has in use, such as `mallinfo2` reports; return
    ///   nil where it cannot be read.
    package static func measureMemory(
        eventCount: Int = 10_000_000, sampleEvery: Int = 1_000_000,
        configuration: InspectorConfiguration = InspectorConfiguration(), heapBytes: () -> Int? = { nil }
    ) -> MemoryMeasurement {
        var workload = SteadyWorkload()
        var state = InspectorState(configuration: configuration)
        var samples: [MemoryMeasurement.Sample] = []
        for index in 1...max(1, eventCount) {
            let event = workload.nextEvent()
            state.apply(event)
            if index % 1_024 == 0, let time = event.timestamp { state.tick(now: time) }
            if index % max(1, sampleEvery) == 0 || index == eventCount {
                samples.append(.init(events: index, footprint: state.footprint, heapBytes: heapBytes()))
            }
        }
        return MemoryMeasurement(samples: samples)
    }

    /// Hands `body` the steady workload's first `eventCount` events, one at a time (none kept).
    package static func forEachSteadyEvent(_ eventCount: Int, _ body: (TraceEvent) -> Void) {
        var workload = SteadyWorkload()
        for _ in 0..<max(0, eventCount) { body(workload.nextEvent()) }
    }

    /// The model after folding `eventCount` steady-workload events, ticked every 1,024 events,
    /// and the newest event time it saw: the untimed set-up of the query rows.
    static func steadyState(eventCount: Int) -> (state: InspectorState, last: UInt64) {
        var workload = SteadyWorkload()
        var state = InspectorState()
        var last: UInt64 = 0
        for index in 1...max(1, eventCount) {
            let event = workload.nextEvent()
            state.apply(event)
            last = event.timestamp ?? last
            if index % 1_024 == 0, let time = event.timestamp { state.tick(now: time) }
        }
        return (state, last)
    }

    /// Times explaining one post (every registration that could have received it weighed: its
    /// name's, and those of the workload's 15 near names, live and ended within the retirement
    /// window) after folding `eventCount` steady-workload events: the best of `repeats` runs, in
    /// nanoseconds, and how many verdicts one run gave. The fold is not timed.
    package static func measureExplain(
        eventCount: Int = 1_000_000, repeats: Int = 5, now: () -> UInt64
    ) -> (nanoseconds: UInt64, verdicts: Int) {
        let state = steadyState(eventCount: eventCount).state
        let name = SteadyWorkload.names[3]
        // Registration 0 is never made: this lists the kept posts without weighing anyone.
        let latest = state.explain(name: name, registration: 0).posts.last?.post.seq
        var best = UInt64.max
        var verdicts = 0
        for _ in 0..<max(1, repeats) {
            let start = now()
            let explanation = state.explain(name: name, post: latest)
            best = min(best, now() - start)
            verdicts = explanation.posts.reduce(0) { $0 + $1.considered.count }
        }
        return (best, verdicts)
    }

    /// Times building the cascade of one post after folding `eventCount` steady-workload events
    /// and then a nested cascade (``nestedCascade(after:)``): the best of `repeats` runs, in
    /// nanoseconds, and how many posts and deliveries the tree holds. The folds are not timed.
    package static func measureCascade(
        eventCount: Int = 1_000_000, repeats: Int = 5, now: () -> UInt64
    ) -> (nanoseconds: UInt64, posts: Int, deliveries: Int) {
        var (state, last) = steadyState(eventCount: eventCount)
        let (root, events) = nestedCascade(after: last)
        for event in events { state.apply(event) }
        var best = UInt64.max
        var size = (posts: 0, deliveries: 0)
        for _ in 0..<max(1, repeats) {
            let start = now()
            let cascade = state.cascade(post: root)
            best = min(best, now() - start)
            size = (cascade?.posts ?? 0, cascade?.deliveries ?? 0)
        }
        return (best, size.posts, size.deliveries)
    }

    /// A post made at `after` + 1 ms whose three handlers each post twice, and so on four levels
    /// deep (259 posts, 777 deliveries), in the order the lines reach the viewer: a post, then the
    /// posts its handlers made, each handler's deliver line when its run ends. Returns the root
    /// post's id and the events, whose ids and sequence numbers start far above the workload's.
    package static func nestedCascade(after time: UInt64) -> (root: UInt64, events: [TraceEvent]) {
        var events: [TraceEvent] = []
        var seq: UInt64 = 1 << 40
        var postID: UInt64 = 1 << 40
        var clock = time + 1_000_000
        func emitPost(depth: Int, parent: UInt64) {
            postID += 1
            seq += 1
            clock += 1_000
            let id = postID
            let name = SteadyWorkload.names[depth]
            events.append(
                .posted(
                    TracePost(
                        seq: seq, timestamp: clock, thread: 1, postID: id, name: name, object: nil,
                        hasUserInfo: false, matched: 3, depth: depth, parentPostID: parent, callsite: 2)))
            for handler in 1...3 {
                let start = clock + 100
                clock = start
                if depth < 4 {
                    emitPost(depth: depth + 1, parent: id)
                    emitPost(depth: depth + 1, parent: id)
                }
                clock += 500
                seq += 1
                events.append(
                    .delivered(
                        TraceDelivery(
                            seq: seq, timestamp: clock, thread: 1, postID: id, registration: UInt64(handler),
                            name: name, postingThread: 1, target: .posting, start: start, duration: clock - start,
                            wait: 0, depth: depth)))
            }
        }
        let root = postID + 1
        emitPost(depth: 1, parent: 0)
        return (root, events)
    }
}
