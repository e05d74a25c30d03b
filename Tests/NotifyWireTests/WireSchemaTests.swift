@testable import NotifyWire
import Testing

/// The encoder and both decoding paths spell names from one table. For every kind, the encoder's
/// line must come back equal from each path on its own: the fast path for the kinds it reads, the
/// general path for all of them.
@Suite struct WireSchemaTests {
    /// The kinds the fast path reads: the bulk of a busy stream, and the idle stream's ticks.
    static let fastPathKinds: Set<TraceLineKind> = [
        .delivered, .posted, .enqueued, .registered, .removed, .queue, .object, .tick,
    ]

    /// One sample per kind, plus a registration whose optional fields are all set.
    static let events: [TraceEvent] =
        TraceLineKind.allCases.map(TraceSamples.event) + [
            .registered(
                TraceRegistration(
                    seq: 12, timestamp: 1_000_010_000, thread: 2, id: 9, name: "cartDidChange", kind: .block,
                    observer: 7,
                    object: 8, target: .operationQueue, targetLabel: "sync queue", callsite: 3, preexisting: true,
                    capturesObserverStrongly: true, mainThreadOnly: true, registeredAt: 999_000_000)),
            // A snapshot's registration with the deliveries it ran before (1.4).
            .registered(
                TraceRegistration(
                    seq: 14, timestamp: 1_000_012_000, thread: 2, id: 10, name: nil, kind: .target, observer: 7,
                    object: nil, target: .main, targetLabel: nil, callsite: 3, preexisting: true,
                    capturesObserverStrongly: false, registeredAt: 990_000_000, deliveries: 41)),
            // 1.4's optional fields and name-less history lines.
            .header(
                TraceHeader(
                    pid: 1, process: "p", center: "c", clockMono: 5, clockWall: 6, producer: "x", since: 4)),
            .checkpoint(
                TraceCheckpoint(
                    seq: 15, timestamp: 990_500_000, thread: 1, label: "screen closed", callsite: 2, preexisting: true)),
            .history(TraceHistory(timestamp: 1_000_013_000, thread: 2, name: nil, posts: 7)),
            .siteCount(TraceSiteCount(timestamp: 990_100_000, name: nil, callsite: 3, live: 1)),
            // A typed message's post (1.2), whose optional last field only messages carry.
            .posted(
                TracePost(
                    seq: 13, timestamp: 1_000_011_000, thread: 1, postID: 14, name: "Demo.CartTotalChanged", object: 8,
                    hasUserInfo: false, matched: 2, depth: 1, parentPostID: 0, callsite: 5, message: .async)),
        ]

    @Test("every kind's wire name in the table is the kind's raw value")
    func kindNames() {
        for kind in TraceLineKind.allCases {
            #expect(String(decoding: kind.wire.name, as: UTF8.self) == kind.rawValue)
        }
    }

    @Test("each sample covers the kind it is for, so the suite sees every kind")
    func samplesCoverEveryKind() {
        #expect(Set(Self.events.compactMap(\.kind)) == Set(TraceLineKind.allCases))
    }

    @Test(
        "the fast path decodes the encoder's line of each of its kinds to an equal event",
        arguments: events.filter { $0.kind.map(fastPathKinds.contains) == true })
    func fastPathDecodesItsKinds(_ event: TraceEvent) {
        let line = TraceEncoder.line(for: event)
        #expect(fastPathEvent(line) == event, "\(line)")
    }

    @Test(
        "the fast path leaves every other kind to the general path",
        arguments: events.filter { $0.kind.map(fastPathKinds.contains) == false })
    func fastPathDeclinesOtherKinds(_ event: TraceEvent) {
        let line = TraceEncoder.line(for: event)
        #expect(fastPathEvent(line) == nil, "\(line)")
    }

    @Test("the general path decodes the encoder's line of every kind to an equal event", arguments: events)
    func generalPathDecodesEveryKind(_ event: TraceEvent) throws {
        let line = TraceEncoder.line(for: event)
        #expect(try generalPathEvent(line) == event, "\(line)")
    }
}
