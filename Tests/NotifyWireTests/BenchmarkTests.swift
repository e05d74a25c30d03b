#if canImport(Glibc)
import Glibc
#endif
import Testing
import NotifyBenchmarks
import NotifyWire

/// Checks the benchmark entry points work; prints throughput when NOTIFY_EVENTS_THROUGHPUT is set
/// (use a release build: `swift test -c release --filter BenchmarkTests`).
@Suite struct BenchmarkTests {
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    @Test("the sample stream has the documented mix and round trips")
    func sampleMix() {
        let events = WireBenchmark.sampleEvents(count: 1_000)
        #expect(events.count == 1_000)
        #expect(events.count { $0.kind == .delivered } == 500)
        #expect(events.count { $0.kind == .posted } == 200)
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        #expect(decodeAll(bytes) == events.map(DecodeOutcome.event))
    }

    @Test("encode and decode measurements count every event and byte")
    func measurements() {
        let encode = WireBenchmark.measureEncode(eventCount: 5_000, now: Self.now)
        let decode = WireBenchmark.measureDecode(eventCount: 5_000, now: Self.now)
        #expect(encode.events == 5_000 && decode.events == 5_000)
        #expect(encode.bytes == decode.bytes && encode.bytes > 5_000 * 100)
        #expect(encode.eventsPerSecond > 0 && decode.megabytesPerSecond > 0)
        #expect(
            WireBenchmark.Measurement(events: 1_000_000, bytes: 171_300_000, nanoseconds: 412_000_000)
                .description == "1000000 events, 171.3 MB in 0.412 s: 2.43M events/s, 415.8 MB/s")
    }

    @Test(
        "throughput, printed when NOTIFY_EVENTS_THROUGHPUT is set",
        .enabled(if: getenv("NOTIFY_EVENTS_THROUGHPUT") != nil))
    func throughput() {
        for _ in 0..<3 {
            print("encode:", WireBenchmark.measureEncode(eventCount: 1_000_000, now: Self.now))
            print("decode:", WireBenchmark.measureDecode(eventCount: 1_000_000, now: Self.now))
        }
    }
}
