import NotifyEvents

/// One attached viewer on the app side: its socket and a bounded queue of bytes not yet written.
///
/// A viewer that reads too slowly is never waited for. Lines that do not fit its queue are
/// counted, and once the queue has room again the viewer first receives a `gap` line with the
/// exact number it missed.
final class ViewerConnection {
    let socket: UnixSocket
    let maximumQueuedBytes: Int
    private var queued: [UInt8] = []
    private var sent = 0
    private var missed: UInt64 = 0
    private(set) var isClosed = false

    init(socket: UnixSocket, maximumQueuedBytes: Int) {
        self.socket = socket
        self.maximumQueuedBytes = maximumQueuedBytes
    }

    var queuedByteCount: Int { queued.count - sent }

    /// Queues one encoded line (it ends with a newline), or counts it as missed. A pending gap goes
    /// first, and only together with the line.
    func enqueue(line: ArraySlice<UInt8>, gapSequence: () -> (seq: UInt64, timestamp: UInt64)) {
        guard !isClosed else { return }
        guard missed == 0 || queueGap(reserving: line.count, gapSequence: gapSequence),
              queuedByteCount + line.count <= maximumQueuedBytes else {
            missed += 1
            return
        }
        queued.append(contentsOf: line)
    }

    /// Reports missed lines as soon as there is room, even when no new line is waiting.
    func reportMissed(gapSequence: () -> (seq: UInt64, timestamp: UInt64)) {
        guard !isClosed, missed > 0 else { return }
        _ = queueGap(reserving: 0, gapSequence: gapSequence)
    }

    /// Queues a gap line for the lines missed so far if it fits with `reserved` more bytes after it.
    private func queueGap(reserving reserved: Int, gapSequence: () -> (seq: UInt64, timestamp: UInt64)) -> Bool {
        var gap: [UInt8] = []
        let stamp = gapSequence()
        TraceEncoder.encode(.gap(TraceGap(seq: stamp.seq, timestamp: stamp.timestamp, count: missed,
                                          reason: .viewerBehind)), into: &gap)
        guard queuedByteCount + gap.count + reserved <= maximumQueuedBytes else { return false }
        queued.append(contentsOf: gap)
        missed = 0
        return true
    }

    var hasMissed: Bool { missed > 0 }

    /// Queues bytes that must not be dropped (the header and snapshot of a new viewer).
    func enqueueUnconditionally(_ bytes: [UInt8]) {
        queued.append(contentsOf: bytes)
    }

    /// Writes what the socket takes without blocking; closes the viewer when its peer is gone.
    func flush() {
        guard !isClosed else { return }
        while sent < queued.count {
            let written = queued.withUnsafeBytes { raw in
                socket.writeSome(UnsafeRawBufferPointer(rebasing: raw[sent...]))
            }
            guard let written else {
                close()
                return
            }
            if written == 0 { break }
            sent += written
        }
        if sent == queued.count {
            queued.removeAll(keepingCapacity: queued.capacity <= 1 << 20)
            sent = 0
        } else if sent > 1 << 20 {
            queued.removeFirst(sent)
            sent = 0
        }
    }

    func close() {
        isClosed = true
        socket.close()
        queued = []
        sent = 0
    }
}
