import Glibc

/// Lines from a descriptor, waiting at most a timeout for each. A line longer than
/// ``maximumLineBytes`` is skipped whole and counted (``skippedLongLines``): what is held never
/// exceeds that bound and one read's chunk.
package struct LineReader {
    private let descriptor: Int32
    private var pending: [UInt8] = []
    /// Where the unread part of `pending` starts.
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    /// Whether the bytes up to the next newline belong to a line being skipped.
    private var skipping = false
    /// The longest line kept, without its newline.
    package let maximumLineBytes: Int
    /// Lines skipped for being longer than ``maximumLineBytes``.
    package private(set) var skippedLongLines: UInt64 = 0
    /// Whether the writer closed its end.
    package private(set) var ended = false

    package init(descriptor: Int32, maximumLineBytes: Int = 1 << 16) {
        self.descriptor = descriptor
        self.maximumLineBytes = maximumLineBytes
        ended = descriptor < 0
    }

    /// Closes the descriptor: no line comes after.
    package mutating func close() {
        if !closed && descriptor >= 0 { Glibc.close(descriptor) }
        closed = true
        ended = true
    }
    private var closed = false

    /// The next whole line (without its newline), nil on timeout or at the end.
    package mutating func next(timeoutMilliseconds: Int32) -> String? {
        while true {
            if let newline = pending[start...].firstIndex(of: 0x0A) {
                let line = pending[start..<newline]
                start = newline + 1
                if skipping {
                    skipping = false
                    continue
                }
                if line.count > maximumLineBytes {
                    skippedLongLines += 1
                    continue
                }
                return String(decoding: line, as: UTF8.self)
            }
            if pending.count - start > maximumLineBytes {
                // The line is too long already: dropped now, the rest up to its newline later.
                if !skipping { skippedLongLines += 1 }
                skipping = true
                start = pending.count
            }
            pending.removeSubrange(..<start)
            start = 0
            guard !ended else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                ended = true
                return nil
            }
            pending.append(contentsOf: chunk[0..<count])
        }
    }
}
