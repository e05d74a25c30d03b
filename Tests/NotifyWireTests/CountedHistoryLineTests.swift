import NotifyWire
import Testing

/// A `history` line's `registration` and `recent` (written only when known and when true) survive
/// the wire; a line without them reads as before.
@Suite struct CountedHistoryLineTests {
    @Test func registrationAndRecentRoundTrip() {
        let history = TraceHistory(
            timestamp: 7, thread: 2, name: "cart", posts: 1, deliveries: 3, unheard: 0, registration: 9, recent: true)
        var bytes: [UInt8] = []
        TraceEncoder.encode(.history(history), into: &bytes)
        let line = String(decoding: bytes, as: UTF8.self)
        #expect(line.hasSuffix(#","registration":9,"recent":true}"# + "\n"))
        #expect(decodeOne(String(line.dropLast())) == .event(.history(history)))
        let old = #"{"k":"history","t":7,"thread":2,"name":"cart","posts":1}"#
        #expect(decodeOne(old) == .event(.history(TraceHistory(timestamp: 7, thread: 2, name: "cart", posts: 1))))
    }
}
