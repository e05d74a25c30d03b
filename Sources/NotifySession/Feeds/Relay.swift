#if canImport(Glibc)
import Glibc
#endif
package import NotifySystem

/// `notifytop --relay`: the remote end of `notifytop --ssh`, run by ssh on the inspected host.
/// `--relay --list` prints the host's inspectable processes in a form ``parseListing(_:host:)``
/// reads; `--relay --pid N` copies that process's trace stream to standard output, byte for
/// byte, until the stream ends, the viewer's ssh goes away (standard input or output closes), or
/// a write fails. Errors are one line on standard error, status 1.
package enum Relay {
    /// The first word of a listing, and the listing format's version.
    static let listingMagic = "notifytop-relay"
    static let listingVersion = "1"

    /// A listing: a first line naming the format and the socket directory, then one
    /// tab-separated line per process: pid, uptime in seconds (empty when unknown), name, socket.
    package static func listing(directory: String, processes: [InspectableProcess]) -> String {
        var lines = [[listingMagic, listingVersion, field(directory)].joined(separator: "\t")]
        for process in processes {
            let uptime = process.uptimeSeconds.map { String($0) } ?? ""
            lines.append(
                [String(process.pid), uptime, field(process.name), field(process.socketPath)].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The most a listing may hold: a host that sends more is not answering as notifytop does.
    package static let maximumListingBytes = 4 << 20
    package static let maximumListingLineBytes = 8 << 10
    package static let maximumListedProcesses = 10_000

    /// Reads a `listing(directory:processes:)`; nil when the text is not one (another program
    /// answered, or another version of notifytop). Lines before it (a login script's greeting) are
    /// skipped. An uptime that cannot be one (not a number, not finite, negative, absurdly long)
    /// reads as unknown.
    ///
    /// - Throws: a one-line ``HostFailure`` when the listing exceeds the bounds above (bytes, a
    ///   line's length, processes).
    package static func parseListing(_ text: String, host: String) throws(HostFailure) -> HostListing? {
        guard text.utf8.count <= maximumListingBytes else {
            throw HostFailure("\(host) sent a listing of over \(maximumListingBytes >> 20) MiB: not notifytop's answer")
        }
        let all = text.split(separator: "\n")
        guard let start = all.firstIndex(where: { $0.hasPrefix(listingMagic + "\t") }) else { return nil }
        let lines = all[start...]
        guard let first = lines.first else { return nil }
        let head = first.split(separator: "\t", omittingEmptySubsequences: false)
        guard head.count == 3, head[0] == listingMagic, head[1] == listingVersion else { return nil }
        guard lines.count - 1 <= maximumListedProcesses else {
            throw HostFailure(
                "\(host) listed \(lines.count - 1) processes, more than the \(maximumListedProcesses) notifytop reads")
        }
        var processes: [InspectableProcess] = []
        for line in lines {
            guard line.utf8.count <= maximumListingLineBytes else {
                throw HostFailure(
                    "\(host) sent a listing line of \(line.utf8.count) bytes (at most \(maximumListingLineBytes))")
            }
            guard line.startIndex != first.startIndex else { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let pid = Int32(fields[0]), pid > 0 else { return nil }
            processes.append(
                InspectableProcess(
                    pid: pid, socketPath: String(fields[3]), name: String(fields[2]),
                    uptimeSeconds: decimalSeconds(fields[1])))
        }
        return HostListing(directory: "\(head[2]) on \(host)", processes: processes)
    }

    /// A number as ``listing(directory:processes:)`` writes one (decimal digits, point, exponent),
    /// so that hexadecimal, `nan` and `inf` spellings are not numbers here.
    private static func decimalSeconds(_ text: Substring) -> Double? {
        guard
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "+-.eE".utf8.contains($0) })
        else { return nil }
        return Double(text)
    }

    private static func field(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? "?" : $0 })
    }

    /// `--relay --list`: prints the listing; 1 when the socket directory is unsafe, said through
    /// `reportError`.
    package static func list(directory: SocketDirectory = .standard, reportError: (String) -> Void) -> Int32 {
        if let problem = directory.problem {
            reportError("notifytop: \(problem)")
            return 1
        }
        var text = listing(directory: directory.path, processes: directory.inspectableProcesses())
        return writeAll(STDOUT_FILENO, &text) ? 0 : 1
    }

    /// `--relay [--pid N | --socket PATH]`: streams the target's trace to standard output; a target
    /// that cannot be reached is one line through `reportError`.
    package static func stream(pid: Int32?, socket path: String?, reportError: (String) -> Void) -> Int32 {
        let socket: UnixSocket
        do {
            let target = try AttachTarget.resolve(pid: pid, socket: path)
            socket = try UnixSocket.connect(to: target.socket)
        } catch {
            // The viewer shows one line; a list of candidates is its own business (it listed them).
            let line = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
            reportError("notifytop: \(line)")
            return 1
        }
        copy(from: socket)
        return 0
    }

    /// Copies until the stream ends or the viewer is gone. Standard input is watched only when it
    /// is a pipe or socket (as under sshd): its end means the viewer's ssh closed it.
    static func copy(from socket: UnixSocket) {
        var info = stat()
        let watchInput =
            fstat(STDIN_FILENO, &info) == 0
            && (info.st_mode & S_IFMT == S_IFIFO || info.st_mode & S_IFMT == S_IFSOCK)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var pollers = [
                pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: watchInput ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
                // No events asked: POLLERR or POLLHUP say the reader of standard output is gone.
                pollfd(fd: STDOUT_FILENO, events: 0, revents: 0),
            ]
            let ready = poll(&pollers, 3, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if pollers[2].revents != 0 { return }
            if pollers[1].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return }
            }
            if pollers[0].revents != 0 {
                guard let count = buffer.withUnsafeMutableBytes({ socket.read(into: $0, timeoutMilliseconds: 0) })
                else { return }
                guard
                    buffer.withUnsafeBytes({ writeAll(STDOUT_FILENO, UnsafeRawBufferPointer(rebasing: $0[0..<count])) })
                else { return }
            }
        }
    }

    private static func writeAll(_ fd: Int32, _ text: inout String) -> Bool {
        text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// False when the reader has gone (EPIPE: SIGPIPE is ignored) or the write failed.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let written = write(fd, bytes.baseAddress! + sent, bytes.count - sent)
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            sent += written
        }
        return true
    }
}
