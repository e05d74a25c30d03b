import NotifyFoundationProbe
import NotifyWire
import Testing

/// `AsyncMessage` sequences (`messages(of:for:)`) as the probes see them: each iterator's add and
/// token, each message put in its buffer as a delivery inside the post (a run, unlike an async
/// observer's enqueue), its removal when the iterator ends; one made before the probes attached is
/// found at its first delivery, never confused with an async observer's enqueue.
@Suite struct MessageSequenceProbeTests {
    /// `_post`'s caller 0xa2 is an `AsyncMessage`'s `post`; metadata 0x71 reads `app.Type113`.
    var lookups: ProbeEventBuilder.Lookups {
        var lookups = testLookups
        lookups.message = { callers in callers.first == 0xa2 ? .async : nil }
        lookups.messageName = { metadata in metadata == 0x71 ? "app.Type113" : nil }
        return lookups
    }

    func registrations(_ events: [TraceEvent]) -> [TraceRegistration] {
        events.compactMap { if case .registered(let registration) = $0 { registration } else { nil } }
    }

    func deliveries(_ events: [TraceEvent]) -> [TraceDelivery] {
        events.compactMap { if case .delivered(let delivery) = $0 { delivery } else { nil } }
    }

    func removals(_ events: [TraceEvent]) -> [UInt64] {
        events.compactMap { if case .removed(let removal) = $0 { removal.registration } else { nil } }
    }

    /// One post of the message on thread 1: a delivery to each sequence (all share the closure
    /// function 5f; `contexts[i]` is iterator `iterators[i]`'s), then to the async observer whose
    /// enqueue holds the observer af.
    func post(at time: Int, contexts: [String], iterators: [String], asyncObserver: Bool = true) -> [String] {
        var lines = ["P 1 \(time) c0 0 0 a2 fb 20 71 S 6e e100000000000000"]
        for (offset, (context, iterator)) in zip(contexts, iterators).enumerated() {
            lines += [
                "D 1 \(time + 1 + 2 * offset) d\(context) 5f \(context)", "B 1 \(time + 2 + 2 * offset) \(iterator)",
            ]
        }
        if asyncObserver { lines.append("D 1 \(time + 9) e0 ef e1 af 0") }
        return lines + ["p 1 \(time + 10)"]
    }

    @Test func eachMessageInASequencesBufferIsADeliveryOfThatSequence() {
        let adds = [
            // Two sequences made on pool threads (iterators 5a0 and 5b0, no subject), one observer.
            "G 2 100 c0 0 0 0 5a0 71 fa 12 12", "m 2 101 0 0 0 S 6e e100000000000000",
            "G 3 110 c0 0 0 0 5b0 71 fa 13 13", "m 3 111 1 0 0 S 6e e100000000000000",
            "Y 1 120 c0 0 0 af 0 71 fa 12 12", "m 1 121 2 0 0 S 6e e100000000000000",
        ]
        let posts = [200, 300, 400].flatMap { post(at: $0, contexts: ["5c1", "5c2"], iterators: ["5a0", "5b0"]) }
        let runs = [
            "W 7 500 f70 af 0", "w 7 510 f70", "W 7 520 f71 af 0", "w 7 530 f71", "W 7 540 f72 af 0", "w 7 550 f72",
        ]
        // The first sequence ends (its iterator's token removed), then one more post.
        let end = ["R 2 600 c0 0 0 fa 30 30 S 6e e100000000000000"]
        let last = post(at: 700, contexts: ["5c2"], iterators: ["5b0"], asyncObserver: false)
        let events = probeEvents(adds + posts + runs + end + last, lookups: lookups)

        let registered = registrations(events)
        #expect(registered.map(\.kind) == [.asyncMessage, .asyncMessage, .asyncMessage])
        #expect(registered.map(\.target) == [.posting, .posting, .task])
        #expect(registered.map(\.targetLabel) == ["message sequence", "message sequence", nil])
        #expect(registered.allSatisfy { $0.name == "app.Type113" && !$0.preexisting })
        let matched = events.compactMap { if case .posted(let post) = $0 { post.matched } else { nil } }
        #expect(matched == [3, 3, 3, 2])

        let delivered = deliveries(events)
        let buffered = delivered.filter { $0.target == .posting }
        #expect(buffered.map(\.registration) == [1, 2, 1, 2, 1, 2, 2])
        #expect(buffered.allSatisfy { $0.thread == $0.postingThread && $0.duration > 0 })
        #expect(delivered.filter { $0.target == .task }.map(\.registration) == [3, 3, 3])
        #expect(removals(events) == [1])
        #expect(!events.contains { if case .gap = $0 { true } else { false } })
    }

    @Test func aSequenceMadeBeforeAttachIsFoundAtItsFirstDeliveryAnObserversEnqueueIsNoRun() {
        let lines = [200, 300].flatMap { post(at: $0, contexts: ["5c9"], iterators: ["5f0"]) }
        var builder = ProbeEventBuilder(pid: 1, lookups: lookups)
        var events: [TraceEvent] = []
        for line in lines { builder.add(ProbeLine(line[...])!, to: &events) }

        let registered = registrations(events)
        #expect(registered.count == 2)
        #expect(registered.allSatisfy { $0.preexisting && $0.kind == .asyncMessage && $0.name == "app.Type113" })
        let sequence = registered.first { $0.targetLabel == "message sequence" }
        #expect(sequence?.target == .posting)
        #expect(registered.contains { $0.target == .task && $0.targetLabel == nil })
        // Both of the sequence's messages are its deliveries; the observer's enqueues are not runs.
        #expect(deliveries(events).map(\.registration) == [sequence?.id, sequence?.id])
        #expect(builder.unmatched == 0)
    }

    @Test func whileLinesAreKnownLostAnUnknownSequenceIsNotMadeUp() {
        let lines = ["Lost 12 events"] + post(at: 200, contexts: ["5c9"], iterators: ["5f0"])
        var builder = ProbeEventBuilder(pid: 1, lookups: lookups)
        var events: [TraceEvent] = []
        for line in lines { builder.add(ProbeLine(line[...])!, to: &events) }
        #expect(registrations(events).isEmpty)
        #expect(deliveries(events).isEmpty)
        #expect(builder.unmatched == 2)
    }

    @Test func aBufferLineWithNoDeliveryRunningIsOnlyCounted() {
        var builder = ProbeEventBuilder(pid: 1, lookups: lookups)
        var events: [TraceEvent] = []
        builder.add(ProbeLine("B 1 100 ffffffffffffffff")!, to: &events)
        #expect(events.isEmpty)
        #expect(builder.unmatched == 1)
    }

    @Test func theProgramReadsTheIteratorsTokenWhereFoundationKeepsIt() throws {
        let library = "/proc/4242/map_files/7fa5ea200000-7fa5ea782000"
        let text = try ProbeProgram(pid: 4242, library: library).text()
        #expect(text.contains("uretprobe:\(library):\"\(FoundationSymbols.sequenceIteratorInit)\""))
        #expect(text.contains("uprobe:\(library):\"\(FoundationSymbols.sequenceCallback)\""))
        #expect(text.contains(#"$b = *(uint64 *)(*(uint64 *)(reg("ax") + 16) + 16);"#))
        #expect(text.contains(#"*(uint64 *)(*(uint64 *)reg("r13") + 56)"#))
    }
}
