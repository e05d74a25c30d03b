import NotifyFoundationProbe
import NotifyWire
import Testing

/// Typed messages as the probes see them: each `MainActorMessage` or `AsyncMessage` observer's
/// add and token (so every delivery of a post is one registration's, whatever the observers'
/// closures share), an `AsyncMessage` observer's enqueue (not a run) and its run on the pool (the
/// delivery), and each message type under its own whole name.
@Suite struct TypedMessageProbeTests {
    /// `_post`'s caller 0xa1 is a `MainActorMessage`'s `post`, 0xa2 an `AsyncMessage`'s; metadata
    /// 0x70 to 0x7f read `app.TypeN`, others have no symbol.
    var lookups: ProbeEventBuilder.Lookups {
        var lookups = testLookups
        lookups.message = { callers in
            switch callers.first {
            case 0xa1: .mainActor
            case 0xa2: .async
            default: nil
            }
        }
        lookups.messageName = { metadata in (0x70...0x7f).contains(metadata) ? "app.Type\(metadata)" : nil }
        return lookups
    }

    func registrations(_ events: [TraceEvent]) -> [TraceRegistration] {
        events.compactMap { if case .registered(let registration) = $0 { registration } else { nil } }
    }

    func deliveries(_ events: [TraceEvent]) -> [TraceDelivery] {
        events.compactMap { if case .delivered(let delivery) = $0 { delivery } else { nil } }
    }

    func posts(_ events: [TraceEvent]) -> [TracePost] {
        events.compactMap { if case .posted(let post) = $0 { post } else { nil } }
    }

    /// `observers` `MainActorMessage` observers of metadata 0x70 added from one line with one
    /// closure (a closure that captures nothing: context 0), then `count` posts of it.
    func mainActorLines(observers: Int, posts count: Int) -> [String] {
        let adds = (0..<observers).flatMap { index in
            [
                "M 1 \(100 + index) c0 0 0 f1 0 70 fa 12 12",
                "m 1 \(100 + index) \(String(index, radix: 16)) 0 0 S 6e e100000000000000",
            ]
        }
        let posted = (0..<count).flatMap { post in
            ["P 1 \(10_000 + post) c0 0 0 a1 fb 20 70 S 6e e100000000000000"]
                + (0..<observers).map { "D 1 \(10_001 + post) \(String(0x10_000 + $0, radix: 16)) f1 0 0 0" }
                + ["p 1 \(10_002 + post)"]
        }
        return adds + posted
    }

    @Test(arguments: [100, 1_000])
    func everyObserverOfATypedMessageRunsOncePerPost(observers: Int) {
        let events = probeEvents(mainActorLines(observers: observers, posts: 3), lookups: lookups)
        #expect(registrations(events).count == observers)
        #expect(registrations(events).allSatisfy { $0.kind == .mainActorMessage && $0.name == "app.Type112" })
        #expect(registrations(events).allSatisfy { !$0.preexisting && $0.callsite != 0 })
        #expect(posts(events).map(\.matched) == [observers, observers, observers])
        let delivered = deliveries(events)
        #expect(delivered.count == 3 * observers)
        #expect(Set(delivered.map(\.registration)).count == observers)
        #expect(!events.contains { if case .gap = $0 { true } else { false } })
    }

    @Test func anAsyncMessagesEnqueueIsNoRunItsRunOnThePoolIsTheDelivery() {
        let events = probeEvents(
            [
                // Two async observers, one closure; the message posted once from the main thread.
                "Y 1 100 c0 0 0 af 0 71 fa 12 12", "m 1 101 0 0 0 S 6e e100000000000000",
                "Y 1 110 c0 0 0 af 0 71 fa 12 12", "m 1 111 1 0 0 S 6e e100000000000000",
                "P 1 200 c0 0 0 a2 fb 20 71 S 6e e100000000000000",
                // Each delivery closure calls an enqueue whose context holds the observer (af, 0).
                "D 1 201 c1 ef e1 af 0", "D 1 202 c2 ef e2 af 0", "p 1 203",
                // The runs, later, on pool threads (one resumed on another thread).
                "W 7 300 f70 af 0", "W 8 310 f80 af 0", "w 8 400 f70", "w 8 420 f80",
            ], lookups: lookups)
        #expect(registrations(events).map(\.kind) == [.asyncMessage, .asyncMessage])
        #expect(registrations(events).allSatisfy { $0.target == .task && $0.name == "app.Type113" })
        let delivered = deliveries(events)
        #expect(delivered.count == 2)
        #expect(delivered.map(\.registration).sorted() == [1, 2])
        #expect(delivered.allSatisfy { $0.target == .task && $0.thread != $0.postingThread })
        #expect(delivered.map(\.start) == [300, 310])
        #expect(delivered.map(\.duration) == [100, 110])
        #expect(delivered.map(\.wait) == [99, 108])
        // The enqueue on the main thread is not a run.
        #expect(!delivered.contains { $0.start == 201 || $0.start == 202 })
    }

    @Test func aRunThatStartsBeforeItsEnqueueReturnsIsStillTheDelivery() {
        let events = probeEvents(
            [
                "Y 1 100 c0 0 0 af 0 71 fa 12 12", "m 1 101 0 0 0 S 6e e100000000000000",
                "P 1 200 c0 0 0 a2 fb 20 71 S 6e e100000000000000", "D 1 201 c1 ef e1 af 0",
                // A pool thread runs the task (and finishes it) while the enqueue is still returning.
                "W 7 202 f70 af 0", "w 7 210 f70", "p 1 220",
            ], lookups: lookups)
        let delivered = deliveries(events)
        #expect(delivered.map(\.registration) == [1])
        #expect(delivered.map(\.start) == [202])
        #expect(delivered.map(\.wait) == [1])
    }

    @Test func localTypesWhoseNamesReadAlikeOnceCutStayApart() {
        let cut = String(repeating: "x", count: 63)
        let events = probeEvents(
            [
                // Two message types Foundation names alike up to the probes' limit, told apart by
                // their metadata (0x72 has a symbol, 0x99 none) and their strings (9a0, 9b0).
                "M 1 100 c0 0 0 f1 0 72 fa 12 12", "m 1 101 0 0 9a0 L 90 \(cut)",
                "M 1 110 c0 0 0 f2 0 99 fa 13 13", "m 1 111 0 0 9b0 L 90 \(cut)",
                "P 1 200 c0 0 0 a1 fb 20 72 L 90 \(cut)", "D 1 201 c1 f1 0", "p 1 202",
                "P 1 300 c0 0 0 a1 fb 20 99 L 90 \(cut)", "D 1 301 c2 f2 0", "p 1 302",
                // The second type's token released: its own registration ends, not the first's.
                "R 1 400 c0 0 0 fa 30 30 9b0 L 90 \(cut)",
            ], lookups: lookups)
        #expect(registrations(events).map(\.name) == ["app.Type114", cut + "…"])
        #expect(posts(events).map(\.name) == ["app.Type114", cut + "…"])
        #expect(posts(events).map(\.matched) == [1, 1])
        #expect(deliveries(events).map(\.registration) == [1, 2])
        let removed = events.compactMap { if case .removed(let removal) = $0 { removal.registration } else { nil } }
        #expect(removed == [2])
    }

    @Test func runsAndReturnsWithNothingToEndAreOnlyCounted() {
        let max = "ffffffffffffffff"
        var builder = ProbeEventBuilder(pid: 1, lookups: lookups)
        var events: [TraceEvent] = []
        for line in [
            "W 7 300 \(max) \(max) \(max)", "w 7 400 \(max)", "m 1 101 \(max) \(max) \(max) S 6e e100000000000000",
            "D 1 201 c1 ef e1 \(max) \(max)",
        ] {
            builder.add(ProbeLine(line[...])!, to: &events)
        }
        #expect(builder.unmatched == 3)
        #expect(registrations(events).map(\.preexisting) == [true])
        #expect(deliveries(events).isEmpty)
    }

    @Test func theProgramProbesTypedAddsAndAsyncRunsWhenFoundationHasThem() throws {
        let library = "/proc/4242/map_files/7fa5ea200000-7fa5ea782000"
        let text = try ProbeProgram(pid: 4242, library: library).text()
        for symbol in FoundationSymbols.typedSymbols { #expect(text.contains("uprobe:\(library):\"\(symbol)\"")) }
        #expect(text.contains("uretprobe:\(library):\"\(FoundationSymbols.addMainActorObserver)\""))
        #expect(text.contains(#"printf("w %d %llu %lx\n", tid, $t, *(uint64 *)(*(uint64 *)reg("r14")));"#))
        let without = try ProbeProgram(pid: 4242, library: library, seesTypedMessages: false).text()
        #expect(!without.contains(FoundationSymbols.addAsyncObserver))
    }
}
