#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Unix stream socket file descriptor, closed when released.
package final class UnixSocket: @unchecked Sendable {  // the descriptor is immutable; the kernel synchronises I/O
    /// The file descriptor, -1 once closed.
    package private(set) var descriptor: Int32

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Closes the descriptor; later calls do nothing.
    package func close() {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Listens at `path`, replacing a stale socket file there, with permissions 0600.
    package static func listen(at path: String, backlog: Int32 = 16) throws(TraceError) -> UnixSocket {
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        let socket = UnixSocket(descriptor: fd)
        unlink(path)
        var address = try makeAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw .system("bind \(path)", errno) }
        chmod(path, 0o600)
        guard Glibc.listen(fd, backlog) == 0 else { throw .system("listen \(path)", errno) }
        return socket
    }

    /// Connects to the socket at `path`, giving up after `timeoutMilliseconds` when the listener
    /// does not take the connection (its backlog is full), and leaves the socket blocking.
    package static func connect(to path: String, timeoutMilliseconds: Int32 = 3_000) throws(TraceError) -> UnixSocket {
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        let socket = UnixSocket(descriptor: fd)
        var address = try makeAddress(path)
        var waited: Int32 = 0
        while true {
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if connected == 0 { break }
            let failure = errno
            if failure == EINPROGRESS {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard poll(&poller, 1, max(0, timeoutMilliseconds - waited)) > 0,
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0
                else {
                    throw .invalid("connect \(path): the process did not accept within \(timeoutMilliseconds) ms")
                }
                guard error == 0 else { throw .system("connect \(path)", error) }
                break
            }
            // A Unix socket whose listener's backlog is full refuses at once with EAGAIN.
            guard failure == EAGAIN || failure == EINTR else { throw .system("connect \(path)", failure) }
            guard waited < timeoutMilliseconds else {
                throw .invalid("connect \(path): the process did not accept within \(timeoutMilliseconds) ms")
            }
            usleep(10_000)
            waited += 10
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return socket
    }

    /// What one `accept` call gave.
    package enum AcceptResult {
        case accepted(UnixSocket)
        /// No connection is waiting (or it went away before it was taken).
        case none
        /// The call failed with this `errno`; EMFILE and ENFILE mean no descriptor was free.
        case failed(Int32)
    }

    /// Accepts one pending connection, nil when none is waiting or it cannot be taken.
    package func accept() -> UnixSocket? {
        if case .accepted(let socket) = acceptConnection() { return socket }
        return nil
    }

    package func acceptConnection() -> AcceptResult {
        let fd = Glibc.accept(descriptor, nil, nil)
        guard fd >= 0 else {
            let failure = errno
            switch failure {
            case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO: return .none
            default: return .failed(failure)
            }
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return .accepted(UnixSocket(descriptor: fd))
    }

    /// Writes what it can without blocking; returns the byte count, 0 when the peer is full, or
    /// nil when the peer has gone.
    package func writeSome(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty else { return 0 }
        let written = send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        if written >= 0 { return written }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        return nil
    }

    /// Reads into `buffer`, waiting at most `timeoutMilliseconds` (-1: forever). Returns the byte
    /// count, 0 on timeout, or nil at end of stream or on error.
    package func read(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int32) -> Int? {
        // Bytes already waiting are taken at once: a busy stream costs one system call per read,
        // not a poll and a read.
        let waiting = recv(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
        if waiting > 0 { return waiting }
        if waiting == 0 { return nil }
        guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return nil }
        if timeoutMilliseconds == 0 { return 0 }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, timeoutMilliseconds)
        if ready == 0 || (ready < 0 && errno == EINTR) { return 0 }
        guard ready > 0 else { return nil }
        let count = recv(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
        if count > 0 { return count }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return 0 }
        return nil
    }

    private static func makeAddress(_ path: String) throws(TraceError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw .invalid("socket path too long (\(bytes.count) bytes): \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
