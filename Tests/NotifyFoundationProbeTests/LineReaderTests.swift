import Glibc
import NotifyFoundationProbe
import Testing

/// bpftrace's output read with a bound: a line over it is skipped whole and counted, and what
/// the reader holds stays near the bound however long the line.
@Suite struct LineReaderTests {
    @Test func aLongLineIsSkippedWholeAndCounted() {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        let writer = ends[1]
        // 1 MiB in one line between two short ones, written from another thread.
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let thread = PipeWriter(writer: writer, bytes: Array("first\n".utf8) + long + Array("\nlast\n".utf8))
        thread.start()
        var reader = LineReader(descriptor: ends[0], maximumLineBytes: 100)
        var lines: [String] = []
        for _ in 0..<200 {
            if let line = reader.next(timeoutMilliseconds: 100) { lines.append(line) }
            if reader.ended { break }
        }
        thread.join()
        close(ends[0])
        #expect(lines == ["first", "last"])
        #expect(reader.skippedLongLines == 1)
    }
}

/// Writes bytes to a descriptor on a thread of its own, then closes it.
private final class PipeWriter: @unchecked Sendable {
    private let writer: Int32
    private let bytes: [UInt8]
    private var thread = pthread_t()

    init(writer: Int32, bytes: [UInt8]) {
        self.writer = writer
        self.bytes = bytes
    }

    func start() {
        let box = Unmanaged.passRetained(self)
        pthread_create(
            &thread, nil,
            { raw in
                let me = Unmanaged<PipeWriter>.fromOpaque(raw!).takeRetainedValue()
                var offset = 0
                while offset < me.bytes.count {
                    let count = me.bytes.withUnsafeBytes {
                        write(me.writer, $0.baseAddress! + offset, $0.count - offset)
                    }
                    guard count > 0 else { break }
                    offset += count
                }
                close(me.writer)
                return nil
            }, box.toOpaque())
    }

    func join() { pthread_join(thread, nil) }
}
