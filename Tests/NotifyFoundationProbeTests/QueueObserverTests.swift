import NotifyFoundationProbe
import NotifyWire
import Testing

/// What the probes show beyond a block run by `post`: an `OperationQueue` observer's queue and the
/// thread its block ran on, threads named as Linux names them, and registrations made before
/// attaching, said not seen.
@Suite struct QueueObserverTests {
    let lookups = testLookups

    func events(_ lines: [String]) -> [TraceEvent] { probeEvents(lines) }

    @Test func theQueueLinesParse() {
        #expect(
            ProbeLine("Q 1 100 5600990 55aae0 0")
                == .queueAdd(thread: 1, time: 100, queue: 0x560_0990, function: 0x55_aae0, context: 0))
        #expect(
            ProbeLine("O 7 300 55aae0 c1") == .operationStart(thread: 7, time: 300, function: 0x55_aae0, context: 0xc1))
        #expect(ProbeLine("o 7 340") == .operationEnd(thread: 7, time: 340))
        #expect(ProbeLine("Q 1 100 5600990 55aae0") == nil)
    }

    @Test func anObserverOnTheMainQueueReadsMainQueue() {
        // The probe gives OperationQueue.main's address (0x770) with each queue add: 0 before the
        // app asked for it.
        let events = events([
            "Q 1 90 770 b1 0 770", "A 1 100 c0 0 0 f0 c0 fa 12 12 S 61 e100000000000000", "a 1 110 0 0",
            "Q 1 120 990 b2 0 770", "A 1 130 c0 0 0 f0 c1 fa 12 12 S 62 e100000000000000", "a 1 140 0 0",
            "Q 1 150 880 b3 0 0", "A 1 160 c0 0 0 f0 c2 fa 12 12 S 63 e100000000000000", "a 1 170 0 0",
        ])
        let labels = events.compactMap { if case .registered(let r) = $0 { r.targetLabel } else { nil } }
        #expect(labels == ["main queue", "OperationQueue 0x990", "OperationQueue 0x880"])
        #expect(
            ProbeLine("Q 1 100 770 b1 0 770")
                == .queueAdd(thread: 1, time: 100, queue: 0x770, function: 0xb1, context: 0, mainQueue: 0x770))
    }

    @Test func theProgramReadsTheMainQueuesAddressWhereFoundationKeepsIt() throws {
        let text = try ProbeProgram(
            pid: 4242, library: "/proc/4242/map_files/7fa5ea200000-7fa5ea782000",
            queueLibrary: "/proc/4242/map_files/7fa5eb000000-7fa5eb400000", mainQueueOffset: 0x36_4188
        ).text()
        #expect(text.contains(#"reg("r9"), *(uint64 *)(reg("ip") + (3555720)));"#))
    }

    @Test func aQueueObserverIsRegisteredOnItsQueueAndDeliveredOnTheQueuesThread() {
        let events = events([
            // addObserver(forName:object:queue:using:) with queue 0x990 and block 0xb1; Foundation
            // passes _addObserver its own closure 0xf0 with context 0xc0.
            "Q 1 90 990 b1 0",
            "A 1 100 c0 0 0 f0 c0 fa 12 12 S 61 e100000000000000",
            "a 1 110 0 0",
            // The post on thread 1 enqueues (D at 210) and waits; thread 7 runs the block 250–290.
            "P 1 200 c0 0 0 fa 20 20 S 61 e100000000000000",
            "D 1 210 aaa f0 c0",
            "O 7 250 b1 0",
            "o 7 290",
            "d 1 300",
        ])
        let registration = events.compactMap { if case .registered(let r) = $0 { r } else { nil } }.first
        #expect(registration?.target == .operationQueue)
        #expect(registration?.targetLabel == "OperationQueue 0x990")
        let delivery = events.compactMap { if case .delivered(let d) = $0 { d } else { nil } }.first
        let threads = Dictionary(
            uniqueKeysWithValues: events.compactMap { if case .thread(let t) = $0 { (t.id, t.systemID) } else { nil } })
        #expect(delivery?.target == .operationQueue)
        #expect(delivery.map { threads[$0.thread] } == 7, "the block ran on the queue's thread")
        #expect(delivery.map { threads[$0.postingThread] } == 1)
        #expect(delivery?.start == 250)
        #expect(delivery?.duration == 40)
        #expect(delivery?.wait == 40, "from the enqueue to the block's start")
    }

    @Test func aQueueObserverOnThePostersOwnQueueRunsInline() {
        let events = events([
            "Q 1 90 990 b1 0", "A 1 100 c0 0 0 f0 c0 fa 12 12 S 61 e100000000000000", "a 1 110 0 0",
            "P 1 200 c0 0 0 fa 20 20 S 61 e100000000000000", "D 1 210 aaa f0 c0", "d 1 230",
        ])
        let delivery = events.compactMap { if case .delivered(let d) = $0 { d } else { nil } }.first
        #expect(delivery?.target == .operationQueue)
        #expect(delivery?.thread == delivery?.postingThread)
        #expect(delivery?.duration == 20)
    }

    @Test func aBlockObserverAfterAQueueObserverIsOnThePostingThread() {
        let events = events([
            "Q 1 90 990 b1 0", "A 1 100 c0 0 0 f0 c0 fa 12 12 S 61 e100000000000000", "a 1 110 0 0",
            "A 1 120 c0 0 0 f2 0 fa 13 13 S 61 e100000000000000", "a 1 130 1 0",
        ])
        let targets = events.compactMap { if case .registered(let r) = $0 { r.target } else { nil } }
        #expect(targets == [.operationQueue, .posting])
    }

    @Test func aThreadIsNamedAsLinuxNamesItWhenFirstSeenAndAskedOnce() {
        var asked: [Int32] = []
        var builder = ProbeEventBuilder(
            pid: 1,
            lookups: ProbeEventBuilder.Lookups(
                threadName: { tid in
                    asked.append(tid)
                    return tid == 1 ? "app" : "poster-\(tid)"
                },
                site: { _ in ProbeSite(file: "app.swift", line: 1) }, typeName: { "Type\($0)" }))
        var events: [TraceEvent] = []
        for line in [
            "P 1 100 c0 0 0 fa 20 20 S 61 e100000000000000", "P 7 200 c0 0 0 fa 20 20 S 61 e100000000000000",
            "P 7 300 c0 0 0 fa 20 20 S 61 e100000000000000",
        ] {
            builder.add(ProbeLine(line[...])!, to: &events)
        }
        let threads = events.compactMap { if case .thread(let t) = $0 { t } else { nil } }
        #expect(threads.map(\.name) == ["app", "poster-7"])
        #expect(threads.map(\.isMain) == [true, false])
        #expect(asked == [1, 7], "read once, on first sight")
    }

    @Test func aRegistrationMadeBeforeAttachingSaysItsSiteWasNotSeen() {
        let events = events(["P 1 200 c0 0 0 fa 20 20 S 61 e100000000000000", "D 1 210 aaa f9 0", "d 1 240"])
        let registration = events.compactMap { if case .registered(let r) = $0 { r } else { nil } }.first
        let sites = events.compactMap { if case .callsite(let c) = $0 { (c.id, c.file) } else { nil } }
        #expect(registration?.preexisting == true)
        #expect(sites.first { $0.0 == registration?.callsite }?.1 == "not seen: registered before attach")
    }
}
