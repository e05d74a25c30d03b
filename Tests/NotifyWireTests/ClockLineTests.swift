@testable import NotifyWire
import Testing

/// The 1.1 clock line: written by quiet producers, read on the fast path, and a 1.0 stream still reads.
@Suite("Clock lines (format 1.1)")
struct ClockLineTests {
    @Test("the fast path decodes a tick line exactly as encoded, and gives up on any other shape")
    func fastPathDecodesTick() {
        let tick = TraceEvent.tick(TraceTick(seq: 42, timestamp: 7_000_000_001))
        let line = TraceEncoder.line(for: tick)
        #expect(line == #"{"k":"tick","seq":42,"t":7000000001}"#)
        var names = StringInterner()
        let bytes = Array(line.utf8)
        let fast = bytes.withUnsafeBufferPointer { CanonicalLineDecoder.decode($0, names: &names) }
        #expect(fast == tick)
        let spaced = Array(#"{"k":"tick", "seq":42,"t":7000000001}"#.utf8)
        #expect(spaced.withUnsafeBufferPointer { CanonicalLineDecoder.decode($0, names: &names) } == nil)
        #expect(decodeOne(" " + line) == .event(tick))
    }

    @Test("a 1.0 stream (no tick lines) still reads; a tick is a timed line without a thread")
    func olderMinorStillReads() throws {
        let text = VersionTests.header(version: "1.0") + "\n" + TraceSamples.line(.tick) + "\n"
        var decoder = TraceDecoder()
        decoder.feed(text.utf8)
        #expect(try decoder.next()?.kind == .header)
        let tick = try #require(try decoder.next())
        #expect(tick.kind == .tick)
        #expect(tick.seq == 10)
        #expect(tick.timestamp == 1_000_500_000)
    }
}
