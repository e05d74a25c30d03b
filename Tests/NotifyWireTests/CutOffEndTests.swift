import NotifyWire
import Testing

/// The `end` line of a viewer cut off for falling behind says how far behind it was, in optional
/// fields that other end lines leave out.
@Suite struct CutOffEndTests {
    @Test("an end line with the cut-off's cause round-trips; one without it is written as before")
    func causeFieldsRoundTrip() throws {
        let cutOff = TraceEnd(
            seq: 9_131, timestamp: 7_000_000_000, reason: .disconnected, behindNanoseconds: 5_000_000_000,
            missedEvents: 48_211, queuedBytes: 6_291_456)
        let line = TraceEncoder.line(for: .end(cutOff))
        #expect(
            line
                == #"{"k":"end","seq":9131,"t":7000000000,"reason":"disconnected","behind":5000000000,"missed":48211,"queuedBytes":6291456}"#
        )
        #expect(try decodeOne(line) == .end(cutOff))
        let plain = TraceEnd(seq: 131, timestamp: 2_000_000_000, reason: .processExit)
        #expect(TraceEncoder.line(for: .end(plain)) == #"{"k":"end","seq":131,"t":2000000000,"reason":"process-exit"}"#)
        #expect(
            try decodeOne(#"{"k":"end","seq":131,"t":2000000000,"reason":"disconnected"}"#)
                == .end(
                    TraceEnd(seq: 131, timestamp: 2_000_000_000, reason: .disconnected)))
    }

    private func decodeOne(_ line: String) throws -> TraceEvent? {
        var decoder = TraceDecoder()
        let header =
            #"{"k":"header","format":"notifytop-trace","version":"1.3","pid":1,"process":"p","center":"c","clockMono":1,"clockWall":1,"producer":"t"}"#
        decoder.feed(Array((header + "\n" + line).utf8)[...])
        decoder.finish()
        _ = try decoder.next()
        return try decoder.next()
    }
}
