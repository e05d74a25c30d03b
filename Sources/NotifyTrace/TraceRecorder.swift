import Foundation

/// Writes a session log: exactly the bytes received, so a recording replays through the same
/// decoder as the live stream and other tools read it as plain JSON Lines.
public final class TraceRecorder {
    /// The file being written.
    public let path: String
    private let fd: Int32
    private var pending: [UInt8] = []
    /// Bytes written so far.
    public private(set) var byteCount = 0

    /// Creates (or truncates) `path`.
    public init(path: String) throws(TraceError) {
        self.path = path
        fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .system("cannot create \(path)", errno) }
    }

    deinit {
        flush()
        close(fd)
    }

    /// Queues bytes; they reach the file at the next flush or once 64 KiB are queued.
    public func write(_ bytes: some Collection<UInt8>) {
        pending.append(contentsOf: bytes)
        byteCount += bytes.count
        if pending.count >= 64 * 1024 { flush() }
    }

    /// Writes everything queued.
    public func flush() {
        var offset = 0
        while offset < pending.count {
            let written = pending.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if written <= 0 {
                if errno == EINTR { continue }
                break
            }
            offset += written
        }
        pending.removeAll(keepingCapacity: true)
    }
}
