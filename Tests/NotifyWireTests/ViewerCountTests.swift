@testable import NotifyWire
import Testing

/// The 1.3 viewer count on clock lines: written when known, read on both paths, absent from older
/// lines (which still read, and re-encode as they were).
@Suite("Viewer counts on clock lines (format 1.3)")
struct ViewerCountTests {
    @Test("a tick with viewers encodes the count last and decodes to it on the fast and general paths")
    func roundTrip() {
        let tick = TraceEvent.tick(TraceTick(seq: 42, timestamp: 7_000_000_001, viewers: 3))
        let line = TraceEncoder.line(for: tick)
        #expect(line == #"{"k":"tick","seq":42,"t":7000000001,"viewers":3}"#)
        var names = StringInterner()
        let bytes = Array(line.utf8)
        #expect(bytes.withUnsafeBufferPointer { CanonicalLineDecoder.decode($0, names: &names) } == tick)
        #expect(decodeOne(" " + line) == .event(tick), "the general path reads the same")
        #expect(
            decodeOne(#"{"k":"tick","seq":42,"t":7000000001,"viewers":null}"#)
                == .event(.tick(TraceTick(seq: 42, timestamp: 7_000_000_001))))
    }

    @Test("a tick without viewers (1.1 and 1.2 producers) decodes to nil and re-encodes byte for byte")
    func olderTickUnchanged() {
        let old = #"{"k":"tick","seq":10,"t":1000500000}"#
        guard case .event(let event)? = decodeOne(old), case .tick(let tick) = event else {
            Issue.record("the old tick line did not decode")
            return
        }
        #expect(tick.viewers == nil)
        #expect(TraceEncoder.line(for: event) == old)
    }

    @Test("a negative or fractional viewer count is an error for that line")
    func invalidCount() {
        #expect(decodingError(#"{"k":"tick","seq":1,"t":2,"viewers":-1}"#) != nil)
        #expect(decodingError(#"{"k":"tick","seq":1,"t":2,"viewers":1.5}"#) != nil)
    }
}
