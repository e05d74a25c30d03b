import Glibc
import NotifySystem

/// A file notifytop creates whole or not at all: written under a temporary name in the same
/// directory, created exclusively, and given its own name only once complete, never replacing
/// what is there (a file, a link, even one pointing nowhere). A failure removes the temporary
/// file and nothing else; a name already taken is refused before anything is written.
///
/// ```swift
/// let file = try NewFile(creating: "out.json")
/// file.write(bytes)
/// try file.publish()
/// ```
final class NewFile {
    /// Why the file could not be made.
    enum Failure: Error, CustomStringConvertible {
        /// Something is at the name: notifytop does not overwrite.
        case exists(String)
        /// A system call failed; what was being done to which file, and its error number.
        case system(String, Int32)

        var description: String {
            switch self {
            case .exists(let path): "\(path) exists: notifytop does not overwrite a file"
            case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
            }
        }

        /// The same, as the trace error the dashboard's saves report.
        var traceError: TraceError {
            switch self {
            case .exists: .invalid(description)
            case .system(let what, let code): .system(what, code)
            }
        }
    }

    /// The name the file gets when published.
    let path: String
    private let temporary: String
    private let fd: Int32
    private var writeError: Int32?
    /// Bytes written so far; `limit` stands in for a disk that is full after that many.
    private var written = 0
    private let limit: Int?
    /// Whether the temporary file is still there, for ``deinit`` to remove.
    private var pending = true

    /// Creates the temporary file next to `path`, once nothing is at `path`.
    init(creating path: String, limit: Int? = nil) throws(Failure) {
        if Self.isTaken(path) { throw .exists(path) }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var temporary = ""
        var fd: Int32 = -1
        for attempt in 0..<100 {
            temporary = directory + ".\(name).\(getpid())-\(attempt).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .system("cannot create \(temporary)", errno) }
        self.path = path
        self.temporary = temporary
        self.fd = fd
        self.limit = limit
    }

    /// Whether something is at `path`: a link counts, even one pointing nowhere.
    static func isTaken(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Appends `bytes`; a failure is kept for ``publish()`` to report.
    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count, writeError == nil {
            let room = limit.map { max(0, $0 - written) } ?? Int.max
            let chunk = min(bytes.count - offset, room)
            guard chunk > 0 else {
                writeError = ENOSPC
                break
            }
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, chunk) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                writeError = count < 0 ? errno : ENOSPC
                break
            }
            offset += count
            written += count
        }
    }

    /// Gives the file its name; on any failure removes it and throws.
    func publish() throws(Failure) {
        guard pending else { return }
        pending = false
        var failure: Failure?
        if close(fd) != 0 && writeError == nil { writeError = errno }
        if let writeError { failure = .system("cannot write \(path)", writeError) }
        // A hard link publishes the file without ever replacing one that appeared meanwhile.
        if failure == nil && link(temporary, path) != 0 {
            let code = errno
            if code == EEXIST {
                failure = .exists(path)
            } else if (code != EPERM && code != ENOTSUP && code != EXDEV) || Self.isTaken(path)
                || rename(temporary, path) != 0
            {
                failure = .system("cannot create \(path)", code)
            }
        }
        unlink(temporary)
        if let failure { throw failure }
    }

    /// Drops the file: nothing is left behind.
    func abandon() {
        guard pending else { return }
        pending = false
        close(fd)
        unlink(temporary)
    }

    deinit { abandon() }
}
