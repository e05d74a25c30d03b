import Foundation
@testable import NotifyWire
import Testing

/// Format 1.4's history for a late viewer: `history` and `site-count` lines, a snapshot
/// registration's `deliveries`, preexisting checkpoints and the header's `since`. Each is written
/// only when it says something, so lines without it read and re-encode as in 1.3.
@Suite("A late viewer's history on the wire (format 1.4)")
struct HistoryLineTests {
    @Test("a history line for the other names has no name field and reads back with a nil name")
    func otherNamesHistory() {
        let history = TraceEvent.history(
            TraceHistory(timestamp: 7, thread: 3, name: nil, posts: 2, deliveries: 5, unheard: 1))
        let line = TraceEncoder.line(for: history)
        #expect(line == #"{"k":"history","t":7,"thread":3,"posts":2,"deliveries":5,"unheard":1}"#)
        #expect(decodeOne(line) == .event(history))
        let nullName = #"{"k":"history","t":7,"thread":3,"name":null,"posts":2,"deliveries":5,"unheard":1}"#
        #expect(decodeOne(nullName) == .event(history))
    }

    @Test("a history line's counts left out read as zero")
    func omittedCountsAreZero() {
        #expect(
            decodeOne(#"{"k":"history","t":9,"thread":1,"name":"a","deliveries":4}"#)
                == .event(.history(TraceHistory(timestamp: 9, thread: 1, name: "a", deliveries: 4))))
    }

    @Test("history and site-count lines are not events: no seq, no stream time, and the thread is required")
    func notEvents() {
        let history = TraceEvent.history(TraceHistory(timestamp: 9, thread: 1, name: "a", posts: 1))
        let count = TraceEvent.siteCount(TraceSiteCount(timestamp: 3, name: "a", callsite: 2, live: 4))
        #expect(history.seq == nil && history.timestamp == nil && history.kind == .history)
        #expect(count.seq == nil && count.timestamp == nil && count.kind == .siteCount)
        #expect(decodingError(#"{"k":"history","t":9,"name":"a","posts":1}"#) != nil)
        #expect(decodingError(#"{"k":"site-count","t":9,"name":"a","callsite":2}"#) != nil)
        #expect(decodingError(#"{"k":"history","t":9,"thread":1,"posts":-1}"#) != nil)
    }

    @Test("a site count for every name has no name field")
    func everyNameSiteCount() {
        let count = TraceEvent.siteCount(TraceSiteCount(timestamp: 3, name: nil, callsite: 2, live: 4))
        let line = TraceEncoder.line(for: count)
        #expect(line == #"{"k":"site-count","t":3,"callsite":2,"live":4}"#)
        #expect(decodeOne(line) == .event(count))
    }

    @Test("a snapshot registration's deliveries come last and read the same on both paths")
    func registrationDeliveries() {
        let registration = TraceRegistration(
            seq: 9, timestamp: 5_000, thread: 1, id: 4, name: "a", kind: .block, observer: nil, object: nil,
            target: .posting, targetLabel: nil, callsite: 2, preexisting: true, capturesObserverStrongly: false,
            registeredAt: 1_000, deliveries: 12)
        let line = TraceEncoder.line(for: .registered(registration))
        #expect(line.hasSuffix(#","registeredAt":1000,"deliveries":12}"#))
        #expect(fastPathEvent(line) == .registered(registration))
        #expect(decodeOne(" " + line) == .event(.registered(registration)))
        var untold = registration
        untold.deliveries = nil
        #expect(TraceEncoder.line(for: .registered(untold)).hasSuffix(#","registeredAt":1000}"#))
    }

    @Test("a checkpoint from before the stream says so; a 1.3 checkpoint line reads as not preexisting")
    func preexistingCheckpoint() {
        let old = #"{"k":"checkpoint","seq":9,"t":1000008000,"thread":1,"label":"l","callsite":2}"#
        guard case .event(.checkpoint(var checkpoint)) = decodeOne(old) else {
            Issue.record("does not decode: \(old)")
            return
        }
        #expect(!checkpoint.preexisting)
        #expect(TraceEncoder.line(for: .checkpoint(checkpoint)) == old)
        checkpoint.preexisting = true
        let line = TraceEncoder.line(for: .checkpoint(checkpoint))
        #expect(line == old.dropLast() + #","preexisting":true}"#)
        #expect(decodeOne(line) == .event(.checkpoint(checkpoint)))
    }

    @Test("the header's since is written when known and read back; a 1.3 header has none")
    func headerSince() {
        var header = TraceHeader(pid: 1, process: "p", center: "c", clockMono: 5, clockWall: 6, producer: "x")
        let old = TraceEncoder.line(for: .header(header)).replacingOccurrences(
            of: TraceFormatVersion.current.description, with: "1.3")
        guard case .event(.header(let decoded)) = decodeOne(old) else {
            Issue.record("does not decode: \(old)")
            return
        }
        #expect(decoded.since == nil && decoded.version == TraceFormatVersion(major: 1, minor: 3))
        header.since = 4
        let line = TraceEncoder.line(for: .header(header))
        #expect(line.hasSuffix(#","producer":"x","since":4}"#))
        #expect(decodeOne(line) == .event(.header(header)))
    }
}
