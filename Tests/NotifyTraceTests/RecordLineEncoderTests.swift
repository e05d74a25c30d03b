import Foundation
import NotifyKit
import NotifyTestSupport
import NotifyWire
@testable import NotifyTraceApp
import Synchronization
import Testing

/// A main-actor message for the encoder's comparison.
struct RecordLineTapped: NotifyCenter.MainActorMessage {
    typealias Subject = MessagePathCart
}

/// An async message for the encoder's comparison.
struct RecordLineSynced: NotifyCenter.AsyncMessage {
    typealias Subject = MessagePathCart
    var value: Int
}

/// The exporter encodes posts, deliveries and enqueues straight from the drained records: its
/// lines must be byte for byte those of the general path (a ``ProbeEvent``, a ``TraceEvent``, then
/// ``TraceEncoder``) for the same events.
@MainActor
@Suite struct RecordLineEncoderTests {
    /// Drains `ring` as the exporter does, into one buffer.
    static func recordLines(_ ring: EventRing, converter: inout ProbeEventConverter) -> [UInt8] {
        let sent = Mutex<[UInt8]>([])
        var encoder = RecordLineEncoder(
            converter: converter, chunk: EncodedChunk(), lines: [], names: QuotedNameCache(), chunkBytes: 256,
            send: { chunk in
                sent.withLock { $0 += chunk.bytes }
                chunk.removeAll()
            })
        _ = ring.drain(into: &encoder)
        converter = encoder.converter
        return sent.withLock { $0 } + encoder.chunk.bytes
    }

    /// Drains `ring` through events and the general encoder, a `gap` first for any loss.
    static func generalLines(_ ring: EventRing, converter: inout ProbeEventConverter) -> [UInt8] {
        var events: [ProbeEvent] = []
        let lost = ring.drain(swappingWith: &events)
        var lines: [TraceEvent] = []
        if lost > 0 {
            lines.append(.gap(TraceGap(seq: converter.nextSequence(), timestamp: 0, count: lost, reason: .bufferFull)))
        }
        for event in events { converter.translate(event, into: &lines) }
        var bytes: [UInt8] = []
        TraceEncoder.encode(lines, into: &bytes)
        return bytes
    }

    /// The lines, with a gap's clock reading (taken when the loss is found) blanked.
    static func comparable(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { line in
            guard line.hasPrefix(#"{"k":"gap""#) else { return String(line) }
            return String(line.replacing(/"t":\d+/, with: #""t":_"#))
        }
    }

    @Test("records encode to the general encoder's bytes: posts, deliveries, enqueues, definitions, removals, gaps")
    func sameBytesAsTheGeneralPath() async throws {
        let center = NotifyCenter()
        let fast = EventRing(capacity: 1 << 12)
        let general = EventRing(capacity: 1 << 12)
        let fastAttachment = center.attach(fast)
        let generalAttachment = center.attach(general)
        defer {
            fastAttachment.detach()
            generalAttachment.detach()
        }
        let cart = MessagePathCart()
        let sender = NSObject()
        let quoted = Notification.Name("Cart \"changed\"\n\\ é")
        let nested = Notification.Name("RecordLine.nested")
        let ran = Mutex(0)
        let queue = OperationQueue()
        var tokens: [NotifyToken] = []
        tokens.append(center.addObserver(forName: quoted, object: nil, queue: nil) { _ in center.post(name: nested) })
        tokens.append(center.addObserver(forName: nested, object: sender, queue: nil) { _ in })
        tokens.append(center.addObserver(forName: nested, object: nil, queue: queue) { _ in })
        let main = center.addObserver(of: cart, for: RecordLineTapped.self) { _ in }
        let async = center.addObserver(for: RecordLineSynced.self) { _ in ran.withLock { $0 += 1 } }
        for index in 0..<40 {
            center.post(name: index.isMultiple(of: 3) ? quoted : nested, object: index.isMultiple(of: 2) ? sender : nil)
        }
        center.post(name: nested, object: sender, userInfo: ["a": 1])
        center.post(RecordLineTapped(), subject: cart)
        for value in 0..<3 { center.post(RecordLineSynced(value: value)) }
        var attention = PoolAttention()
        while ran.withLock({ $0 }) < 3, await attention.sleep() {}
        let deadline = Date(timeIntervalSinceNow: 30)
        center.removeObserver(tokens.removeLast())

        var fastConverter = ProbeEventConverter()
        var generalConverter = ProbeEventConverter()
        var fastBytes: [UInt8] = []
        var generalBytes: [UInt8] = []
        // An async delivery's record is written just after its handler returns: drain both rings
        // until each has all three.
        func taskDeliveries(_ bytes: [UInt8]) -> Int {
            String(decoding: bytes, as: UTF8.self).split(separator: "\n")
                .count { $0.hasPrefix(#"{"k":"deliver""#) && $0.contains("RecordLineSynced") }
        }
        repeat {
            fastBytes += Self.recordLines(fast, converter: &fastConverter)
            generalBytes += Self.generalLines(general, converter: &generalConverter)
        } while (taskDeliveries(fastBytes) < 3 || taskDeliveries(generalBytes) < 3) && Date() < deadline
        // A burst bigger than both rings: the same events are dropped from each, and the loss comes
        // first, as a gap, in both.
        for _ in 0..<3_000 { center.post(name: nested, object: sender) }
        fastBytes += Self.recordLines(fast, converter: &fastConverter)
        generalBytes += Self.generalLines(general, converter: &generalConverter)
        withExtendedLifetime((main, async, tokens)) {}

        let fastLines = Self.comparable(fastBytes)
        let kinds = Set(fastLines.compactMap { $0.firstMatch(of: /"k":"([a-z-]+)"/).map { String($0.1) } })
        #expect(kinds.isSuperset(of: ["post", "deliver", "enqueue", "thread", "type", "obj", "site", "gap", "remove"]))
        #expect(fastLines.count > 100)
        #expect(fastLines == Self.comparable(generalBytes))
        #expect(fastConverter.lastSequence == generalConverter.lastSequence)
    }

    @Test("objects the converter's table forgot are introduced again on the record path, as on the general path")
    func forgottenObjectsAreIntroducedAgain() {
        let center = NotifyCenter()
        let fast = EventRing(capacity: 1 << 12)
        let general = EventRing(capacity: 1 << 12)
        let fastAttachment = center.attach(fast)
        let generalAttachment = center.attach(general)
        defer {
            fastAttachment.detach()
            generalAttachment.detach()
        }
        let name = Notification.Name("RecordLine.objects")
        let objects = (0..<12).map { _ in NSObject() }
        for round in 0..<3 {
            for index in objects.indices { center.post(name: name, object: objects[(index * (round + 1)) % 12]) }
        }
        var fastConverter = ProbeEventConverter(maximumObjects: 3)
        var generalConverter = ProbeEventConverter(maximumObjects: 3)
        let fastLines = Self.comparable(Self.recordLines(fast, converter: &fastConverter))
        let generalLines = Self.comparable(Self.generalLines(general, converter: &generalConverter))
        withExtendedLifetime(objects) {}
        #expect(fastLines.count { $0.hasPrefix(#"{"k":"obj""#) } > 12)
        #expect(fastLines == generalLines)
    }

    @Test("a kept name is found by its serial; another serial is quoted from its own name")
    func nameCacheKeysBySerial() {
        let cache = QuotedNameCache()
        var reads = 0
        let first = Array(
            cache.quoted(serial: 5) {
                reads += 1; return "One"
            })
        let again = Array(
            cache.quoted(serial: 5) {
                reads += 1; return "One"
            })
        let other = Array(cache.quoted(serial: 261) { "Two\"" })  // the same cache slot as 5
        let firstAgain = Array(cache.quoted(serial: 5) { "One" })
        #expect(String(decoding: first, as: UTF8.self) == #""One""#)
        #expect(again == first)
        #expect(reads == 1)
        #expect(String(decoding: other, as: UTF8.self) == #""Two\"""#)
        #expect(firstAgain == first)
    }

    @Test("a name too long to keep is quoted afresh each time, whole, and leaves the kept names as they were")
    func longNamesAreQuotedWhole() {
        let cache = QuotedNameCache()
        let kept = Array(cache.quoted(serial: 1) { "Kept" })
        let long = String(repeating: "é\"", count: 1_500)
        var expected: [UInt8] = []
        TraceEncoder.appendQuoted(long, into: &expected)
        #expect(Array(cache.quoted(serial: 2) { long }) == expected)
        #expect(Array(cache.quoted(serial: 3) { long + "!" }).count == expected.count + 1)
        #expect(Array(cache.quoted(serial: 2) { long }) == expected)
        #expect(Array(cache.quoted(serial: 1) { "Kept" }) == kept)
    }
}
