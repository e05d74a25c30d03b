import Testing

@testable import NotifyWire

/// Format 1.5's additions for explaining missed deliveries: a `remove` line's `callsite`, and the
/// `object-dead` and `merge` lines. Each is read by both decoder paths; a 1.4 `remove` line (no
/// `callsite`) reads as one whose ending call is unknown.
@Suite("What explains a missed delivery on the wire (format 1.5)")
struct ExplainLineTests {
    @Test("a remove line carries its call's site, null when no call ended it, and a 1.4 line reads as unknown")
    func removalSite() throws {
        let cancelled = TraceRemoval(
            seq: 5, timestamp: 10, thread: 1, registration: 4, reason: .tokenCancelled, callsite: 9)
        let line = TraceEncoder.line(for: .removed(cancelled))
        #expect(line.hasSuffix(#""reason":"token-cancelled","callsite":9}"#))
        #expect(bothPathEvents(line) == (.removed(cancelled), .removed(cancelled)))

        let died = TraceRemoval(seq: 6, timestamp: 11, thread: 1, registration: 5, reason: .observerDeallocated)
        let nullLine = TraceEncoder.line(for: .removed(died))
        #expect(nullLine.hasSuffix(#""reason":"observer-deallocated","callsite":null}"#))
        #expect(bothPathEvents(nullLine) == (.removed(died), .removed(died)))

        let old = #"{"k":"remove","seq":6,"t":11,"thread":1,"registration":5,"reason":"observer-deallocated"}"#
        #expect(bothPathEvents(old) == (.removed(died), .removed(died)))
    }

    @Test("object-dead and merge lines round-trip, numbers at their limits included")
    func newLines() {
        let death = TraceObjectDeath(
            seq: .max, timestamp: .max, thread: .max, registration: .max, object: nil, aliveAt: .max)
        let merge = TraceQueueMerge(
            seq: .max, timestamp: .max, thread: .max, queueID: .max, postID: .max, callsite: .max, count: .max,
            enqueuedAt: .max)
        for event in [TraceEvent.objectDead(death), .merged(merge)] {
            let line = TraceEncoder.line(for: event)
            #expect(decodeOne(line) == .event(event), "\(line)")
        }
    }

    @Test(
        "hostile values are one line's error, and the next line still decodes",
        arguments: [
            #"{"k":"merge","seq":1,"t":1,"thread":1,"queueID":1,"postID":1,"callsite":1,"count":-1,"enqueuedAt":1}"#,
            #"{"k":"merge","seq":1,"t":1,"thread":1,"queueID":1,"postID":1,"callsite":1,"count":18446744073709551616,"enqueuedAt":1}"#,
            #"{"k":"merge","seq":1,"t":1,"thread":1,"queueID":1,"postID":1,"callsite":null,"count":1,"enqueuedAt":1}"#,
            #"{"k":"object-dead","seq":1,"t":1,"thread":1,"registration":1,"object":"7","aliveAt":1}"#,
            #"{"k":"object-dead","seq":1,"t":1,"thread":1,"registration":1,"object":7}"#,
            #"{"k":"remove","seq":1,"t":1,"thread":1,"registration":1,"reason":"explicit","callsite":1.5}"#,
            #"{"k":"remove","seq":1,"t":1,"thread":1,"registration":1,"reason":"explicit","callsite":"9"}"#,
        ])
    func hostileValues(line: String) {
        let outputs = decodeAll(line + "\n" + #"{"k":"tick","seq":2,"t":2}"# + "\n")
        #expect(outputs.count == 2)
        guard case .error = outputs.first else {
            Issue.record("accepted: \(line)")
            return
        }
        #expect(outputs.last == .event(.tick(TraceTick(seq: 2, timestamp: 2))))
    }
}
