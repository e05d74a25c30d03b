import Foundation
import NotifyKit
import NotifyTestSupport
import NotifyModel
import NotifyWire
@testable import NotifyTraceApp
import Synchronization
import Testing

/// The subject of the typed messages below.
final class MessagePathCart: Sendable {}

/// A main-actor message about a cart.
struct MessagePathTapped: NotifyCenter.MainActorMessage {
    typealias Subject = MessagePathCart
}

/// An async message about a cart.
struct MessagePathSynced: NotifyCenter.AsyncMessage {
    typealias Subject = MessagePathCart
    var value: Int
}

/// Real typed messages from a NotifyCenter, through the converter, the encoder and the decoder,
/// folded into the model: what notifytop shows for them.
@MainActor
@Suite struct MessagePathTests {
    /// Every probe event as trace lines, encoded and decoded, then folded.
    static func fold(_ events: [ProbeEvent]) throws -> InspectorState {
        var converter = ProbeEventConverter()
        var lines: [TraceEvent] = []
        for event in events { converter.translate(event, into: &lines) }
        var bytes: [UInt8] = []
        TraceEncoder.encode(
            .header(
                TraceHeader(pid: 1, process: "test", center: "default", clockMono: 0, clockWall: 0, producer: "test")),
            into: &bytes)
        TraceEncoder.encode(lines, into: &bytes)
        var decoder = TraceDecoder()
        decoder.feed(bytes)
        decoder.finish()
        var state = InspectorState()
        while let event = try decoder.next() { state.apply(event) }
        return state
    }

    @Test("main-actor, async and sequence observers reach the model with their kinds, depths and drops")
    func wholePath() async throws {
        let center = NotifyCenter()
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        let cart = MessagePathCart()
        let ran = Mutex(0)
        let main = center.addObserver(of: cart, for: MessagePathTapped.self) { _ in }
        let async = center.addObserver(for: MessagePathSynced.self) { _ in ran.withLock { $0 += 1 } }
        let iterator = center.messages(for: MessagePathSynced.self, bufferSize: 1).makeAsyncIterator()
        center.post(MessagePathTapped(), subject: cart)
        for value in 0..<3 { center.post(MessagePathSynced(value: value)) }
        func delivered() -> Int { probe.events.count(where: { if case .delivered = $0.kind { true } else { false } }) }
        // The async observer's three runs and the main-actor one.
        var attention = PoolAttention()
        while ran.withLock({ $0 }) < 3 || delivered() < 4, await attention.sleep() {}
        let state = try Self.fold(probe.events)
        withExtendedLifetime((main, async, iterator)) {}

        let synced = try #require(state.name(String(reflecting: MessagePathSynced.self)))
        #expect(synced.isMessage && synced.messageKind == .async)
        #expect(synced.posts == 3 && synced.liveObservers == 2)
        let tapped = try #require(state.name(String(reflecting: MessagePathTapped.self)))
        #expect(tapped.messageKind == .mainActor && tapped.deliveries == 1)

        let rows = state.registrations
        let mainRow = try #require(rows.first { $0.kind == .mainActorMessage })
        #expect(mainRow.objectFilter?.typeName == String(reflecting: MessagePathCart.self))
        #expect(mainRow.target == .posting && mainRow.deliveries == 1)
        let asyncRow = try #require(rows.first { $0.kind == .asyncMessage })
        #expect(asyncRow.target == .task)
        #expect(asyncRow.enqueuedMessages == 3 && asyncRow.deliveries == 3)
        #expect(asyncRow.maximumPendingMessages >= 1 && asyncRow.pendingMessages == 0)
        let sequenceRow = try #require(rows.first { $0.kind == .messageSequence })
        #expect(sequenceRow.enqueuedMessages == 3)
        #expect(sequenceRow.droppedMessages == 2 && sequenceRow.pendingMessages == 1)
        #expect(state.totals.messagesDropped == 2)
        #expect(state.detailLoss.unknownRegistrationEvents == 0)
        let mailboxThreads = state.threads.filter { $0.mailboxWait.count > 0 }
        #expect(mailboxThreads.reduce(0) { $0 + $1.mailboxWait.count } == 3)
    }
}
