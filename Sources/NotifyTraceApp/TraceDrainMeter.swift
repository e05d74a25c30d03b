import NotifyKit
import NotifyWire

/// Drains an ``EventRing`` into encoded lines as the exporter does, for no viewer: what the
/// exporter's thread spends per event, apart from writing to sockets. For benchmarks.
package struct TraceDrainMeter {
    /// How the lines are made.
    package enum Path: Sendable {
        /// Straight from the records, as the exporter encodes.
        case records
        /// Through a ``ProbeEvent`` and a ``TraceEvent`` per event, then ``TraceEncoder``: the
        /// general path, for comparison.
        case events
    }

    package let path: Path
    private var converter = ProbeEventConverter()
    private let totals = WatchedTotals()
    private var chunk = EncodedChunk()
    private var lines: [TraceEvent] = []
    private var events: [ProbeEvent] = []
    private let names = QuotedNameCache()
    private let chunkBytes: Int

    package init(path: Path, chunkBytes: Int = 1 << 16) {
        self.path = path
        self.chunkBytes = chunkBytes
    }

    /// Drains `ring` and encodes what it held; returns the events drained and the bytes encoded.
    package mutating func drain(_ ring: EventRing) -> (events: Int, bytes: Int) {
        var bytes = 0
        switch path {
        case .records:
            var encoder = RecordLineEncoder(
                converter: ProbeEventConverter(), chunk: EncodedChunk(), lines: [], names: names,
                chunkBytes: chunkBytes, totals: totals,
                send: { chunk in
                    bytes += chunk.byteCount
                    chunk.removeAll()
                })
            swap(&encoder.converter, &converter)
            swap(&encoder.chunk, &chunk)
            _ = ring.drain(into: &encoder)
            bytes += encoder.chunk.byteCount
            encoder.chunk.removeAll()
            swap(&encoder.converter, &converter)
            swap(&encoder.chunk, &chunk)
            return (encoder.count, bytes)
        case .events:
            _ = ring.drain(swappingWith: &events)
            for event in events {
                let first = lines.count
                converter.translate(event, into: &lines)
                for index in first..<lines.count { chunk.append(lines[index]) }
                if chunk.byteCount >= chunkBytes {
                    bytes += chunk.byteCount
                    chunk.removeAll()
                    lines.removeAll(keepingCapacity: true)
                }
            }
            lines.removeAll(keepingCapacity: true)
            bytes += chunk.byteCount
            chunk.removeAll()
            return (events.count, bytes)
        }
    }
}
