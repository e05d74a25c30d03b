import NotifyFoundationProbe
import NotifyWire
import Testing

/// Without a return probe per delivery, a delivery ends where its post's next delivery starts or
/// where the post returns (`p`): the same events as with return probes, at one trap less each.
@Suite struct PostReturnTimingTests {

    func deliveries(_ lines: [String]) -> [TraceDelivery] {
        probeEvents(lines).compactMap { if case .delivered(let d) = $0 { d } else { nil } }
    }

    let registrations = [
        "A 1 100 c0 0 0 f1 0 fa 12 12 S 61 e100000000000000", "a 1 101 0 0",
        "A 1 110 c0 0 0 f2 0 fa 13 13 S 61 e100000000000000", "a 1 111 1 0",
        "A 1 120 c0 0 0 f3 0 fa 14 14 S 62 e100000000000000", "a 1 121 0 0",
    ]

    @Test func siblingsEndAtTheNextStartAndTheLastAtThePostsReturn() {
        let deliveries = deliveries(
            registrations + [
                "P 2 200 c0 0 0 fa 20 20 S 61 e100000000000000", "D 2 210 aaa f1 0", "D 2 250 bbb f2 0", "p 2 270",
                // A post no one observes returns: nothing to end.
                "P 2 300 c0 0 0 fa 20 20 S 63 e100000000000000", "p 2 305",
                "P 2 400 c0 0 0 fa 20 20 S 61 e100000000000000", "D 2 410 aaa f1 0", "D 2 420 bbb f2 0", "p 2 430",
            ])
        #expect(deliveries.map(\.registration) == [1, 2, 1, 2])
        #expect(deliveries.map(\.start) == [210, 250, 410, 420])
        #expect(deliveries.map(\.duration) == [40, 20, 10, 10])
        #expect(deliveries.map(\.timestamp) == [250, 270, 420, 430])
    }

    @Test func aPostInsideAHandlerEndsItsOwnDeliveriesAndTheOuterOneGoesOn() {
        let deliveries = deliveries(
            registrations + [
                "P 1 200 c0 0 0 fa 20 20 S 61 e100000000000000",
                "D 1 210 aaa f1 0",
                // The first handler posts "b": its one delivery ends at that post's return.
                "P 1 220 c0 0 0 fa 21 21 S 62 e100000000000000", "D 1 230 ccc f3 0", "p 1 240",
                // Back in the outer post: its second observer ends the first.
                "D 1 260 bbb f2 0", "p 1 280",
                // The next post on the thread is at depth 1 again.
                "P 1 300 c0 0 0 fa 20 20 S 62 e100000000000000", "D 1 310 ccc f3 0", "p 1 315",
            ])
        #expect(deliveries.map(\.registration) == [3, 1, 2, 3])
        #expect(deliveries.map(\.duration) == [10, 50, 20, 5])
        #expect(deliveries.map(\.depth) == [2, 1, 1, 1])
    }

    @Test func attachingDuringABurstShowsNoDepthItDidNotSee() {
        // Posts made before the probes attached: only their deliveries' starts and their returns
        // are seen, 95 of them on one thread.
        let unseen = (0..<95).flatMap { index in
            ["D 1 \(200 + 10 * index) aaa f1 0", "D 1 \(201 + 10 * index) bbb f2 0", "p 1 \(205 + 10 * index)"]
        }
        // A return whose post was never seen, with nothing running.
        let events = probeEvents(
            registrations + unseen + [
                "p 1 2000", "P 1 3000 c0 0 0 fa 20 20 S 61 e100000000000000", "D 1 3010 aaa f1 0", "p 1 3020",
            ])
        let posts = events.compactMap { if case .posted(let post) = $0 { post } else { nil } }
        #expect(posts.map(\.depth) == [1])
        let deliveries = events.compactMap { if case .delivered(let d) = $0 { d } else { nil } }
        #expect(deliveries.map(\.depth) == [1])
    }

    @Test func aQueueObserversBlockEndsBeforeTheWaitingPostReturns() {
        let deliveries = deliveries([
            "Q 1 90 990 b1 0", "A 1 100 c0 0 0 f0 c0 fa 12 12 S 61 e100000000000000", "a 1 110 0 0",
            "P 1 200 c0 0 0 fa 20 20 S 61 e100000000000000", "D 1 210 aaa f0 c0", "O 7 250 b1 0", "o 7 290", "p 1 300",
        ])
        #expect(deliveries.map(\.start) == [250])
        #expect(deliveries.map(\.duration) == [40])
    }

    @Test func theProgramProbesThePostsReturnInsteadOfEachDeliverys() throws {
        let text = try ProbeProgram(pid: 9, library: "/proc/9/map_files/1000-2000").text()
        #expect(text.contains("uretprobe:/proc/9/map_files/1000-2000:\"\(FoundationSymbols.post)\""))
        #expect(!text.contains("uretprobe:/proc/9/map_files/1000-2000:\"\(FoundationSymbols.delivery)\""))
        let exact = try ProbeProgram(pid: 9, library: "/proc/9/map_files/1000-2000", deliveryEnd: .closureReturn).text()
        #expect(exact.contains("uretprobe:/proc/9/map_files/1000-2000:\"\(FoundationSymbols.delivery)\""))
        #expect(!exact.contains("uretprobe:/proc/9/map_files/1000-2000:\"\(FoundationSymbols.post)\""))
        #expect(ProbeProgram.trapsPerPost(observers: 10, deliveryEnd: .nextDeliveryOrPostReturn) == 12)
        #expect(ProbeProgram.trapsPerPost(observers: 10, deliveryEnd: .closureReturn) == 21)
    }
}
