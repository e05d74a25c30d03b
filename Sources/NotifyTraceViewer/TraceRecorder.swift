import Foundation
public import NotifySystem

/// Writes a session log: exactly the bytes received, so a recording replays through the same
/// decoder as the live stream and other tools read it as plain JSON Lines.
///
/// Bytes reach the file at least once a second (on a write, or on ``flushIfDue()`` from
/// an idle reader), so a killed viewer loses about a second at most. The first failed write
/// (a full disk) stops the recording for good: ``failure`` says why and ``bytesWritten`` what the
/// file holds. Writing is for one thread; ``failure``, ``bytesWritten`` and ``outcome`` may be
/// read from any.
public final class TraceRecorder: @unchecked Sendable {  // `state` is locked; the rest belongs to the writing thread
    /// The file being written.
    public let path: String
    /// The longest bytes wait in memory before they are written.
    package static let flushInterval: UInt64 = 1_000_000_000

    private struct State {
        var written = 0
        var failure: TraceError?
    }

    private let fd: Int32
    private var pending: [UInt8] = []
    private var failed = false
    private var lastFlush = TraceRecorder.coarseNow()
    private let state = LockedValue(State())
    /// Bytes handed to ``write(_:)`` so far, written or not.
    public private(set) var byteCount = 0

    /// Creates `path`, which must not exist: a recording never truncates or overwrites a file,
    /// and never follows a symbolic link planted at its name (even one pointing nowhere). A
    /// character device or a FIFO already there (`/dev/null`, a pipe) is written to as it is.
    ///
    /// - Throws: a one-line `TraceError` naming the path when it exists or cannot be created.
    public init(path: String) throws(TraceError) {
        self.path = path
        let created = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if created >= 0 {
            fd = created
            return
        }
        let code = errno
        guard code == EEXIST else { throw .system("cannot create \(path)", code) }
        fd = try Self.openStream(path)
    }

    /// An existing character device or FIFO at `path`, opened for writing without following a
    /// link, truncating or blocking; anything else there is refused.
    private static func openStream(_ path: String) throws(TraceError) -> Int32 {
        var info = stat()
        guard lstat(path, &info) == 0, Self.isStream(info.st_mode) else {
            throw .invalid("\(path) exists: notifytop does not overwrite a file")
        }
        let fd = Glibc.open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .system("cannot open \(path)", errno) }
        // What was opened, not what was looked at: a file swapped in meanwhile is left as it was.
        guard fstat(fd, &info) == 0, Self.isStream(info.st_mode) else {
            close(fd)
            throw .invalid("\(path) exists: notifytop does not overwrite a file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    private static func isStream(_ mode: mode_t) -> Bool {
        mode & S_IFMT == S_IFCHR || mode & S_IFMT == S_IFIFO
    }

    /// Creates the first name of `name(first)`, `name(first + 1)`, … that is free, as
    /// ``init(path:)`` creates one: an earlier recording, or a link planted at a name, is
    /// passed over, never replaced.
    ///
    /// - Throws: the error of a name that exists for another reason than being taken, or after
    ///   `attempts` names were all taken.
    package static func firstFree(
        from first: Int, attempts: Int = 10_000, _ name: (Int) -> String
    ) throws(TraceError) -> TraceRecorder {
        var number = first
        while true {
            let path = name(number)
            do {
                return try TraceRecorder(path: path)
            } catch {
                guard case .invalid = error, number - first + 1 < attempts else { throw error }
                number += 1
            }
        }
    }

    deinit {
        flush()
        close(fd)
    }

    /// Bytes the file holds: what the system accepted.
    public var bytesWritten: Int { state.withLock { $0.written } }

    /// The write error that stopped the recording; nil while all is well.
    public var failure: TraceError? { state.withLock { $0.failure } }

    /// One line on how the recording went: the bytes in the file, and whether it is complete.
    public var outcome: String {
        let (written, failure) = state.withLock { ($0.written, $0.failure) }
        guard let failure else { return "recorded \(written) bytes to \(path)" }
        return "\(failure); recording stopped at \(written) bytes, the file is incomplete"
    }

    /// Queues bytes; they reach the file once 64 KiB are queued or a second has passed.
    /// Ignored after a write failed.
    public func write(_ bytes: some Collection<UInt8>) {
        guard !failed else { return }
        pending.append(contentsOf: bytes)
        byteCount += bytes.count
        if pending.count >= 64 * 1024 { flush() } else { flushIfDue() }
    }

    /// Writes what is queued if it has waited a second: for a reader with nothing to read.
    public func flushIfDue() {
        guard !pending.isEmpty, Self.coarseNow() &- lastFlush >= Self.flushInterval else { return }
        flush()
    }

    /// Writes everything queued; false once a write has failed.
    @discardableResult
    public func flush() -> Bool {
        lastFlush = Self.coarseNow()
        guard !failed else { return false }
        var offset = 0
        var error: Int32?
        while offset < pending.count {
            let written = pending.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 {
                error = written < 0 ? errno : ENOSPC
                break
            }
            offset += written
        }
        pending.removeAll(keepingCapacity: true)
        let done = offset
        if let error {
            failed = true
            pending = []
            state.withLock {
                $0.written += done
                $0.failure = .system("cannot write \(path)", error)
            }
            return false
        }
        if done > 0 { state.withLock { $0.written += done } }
        return true
    }

    private static func coarseNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
