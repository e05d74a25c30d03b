#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where inspectable processes put their sockets: `$XDG_RUNTIME_DIR/notifytop/<pid>.sock`, or
/// `/tmp/notifytop-<uid>/<pid>.sock` when there is no runtime directory. The directory is created
/// 0700 and each socket is 0600, so only the same user can attach.
public struct SocketDirectory: Sendable, Equatable {
    /// The directory's path.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The directory for this user, from the environment.
    public static var standard: SocketDirectory {
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
            return SocketDirectory(path: runtime + "/notifytop")
        }
        return SocketDirectory(path: "/tmp/notifytop-\(getuid())")
    }

    /// The socket path of a process.
    public func socketPath(for pid: Int32) -> String {
        "\(path)/\(pid).sock"
    }

    /// Creates the directory (0700) if needed; fails if it exists but is not a private directory
    /// of this user, since then another user could read the traces.
    public func prepare() throws(TraceError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .system("cannot create \(path)", errno)
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .system("cannot stat \(path)", errno) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .invalid("\(path) is not a directory") }
        guard info.st_uid == getuid() else { throw .invalid("\(path) belongs to another user") }
        if info.st_mode & 0o077 != 0 { chmod(path, 0o700) }
    }

    /// The processes with a socket here, oldest first; sockets of processes that no longer exist
    /// are removed on the way.
    public func inspectableProcesses() -> [InspectableProcess] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var found: [InspectableProcess] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasSuffix(".sock"), let pid = Int32(name.dropLast(5)) else { continue }
            let socket = "\(path)/\(name)"
            guard ProcessInfoReader.isAlive(pid) else {
                unlink(socket)
                continue
            }
            found.append(InspectableProcess(
                pid: pid, socketPath: socket, name: ProcessInfoReader.name(of: pid),
                uptimeSeconds: ProcessInfoReader.uptimeSeconds(of: pid)))
        }
        return found.sorted { ($0.uptimeSeconds ?? 0) > ($1.uptimeSeconds ?? 0) }
    }
}

/// A process that can be attached to.
public struct InspectableProcess: Sendable, Equatable {
    public let pid: Int32
    public let socketPath: String
    /// The kernel's command name (`/proc/<pid>/comm`).
    public let name: String
    /// Seconds since the process started, when /proc tells.
    public let uptimeSeconds: Double?
}

/// Reads what /proc says about a process.
enum ProcessInfoReader {
    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    static func name(of pid: Int32) -> String {
        (readSmallFile("/proc/\(pid)/comm") ?? "?").trimmingTrailingNewlines()
    }

    /// From field 22 of /proc/<pid>/stat (start time in clock ticks since boot) and /proc/uptime.
    static func uptimeSeconds(of pid: Int32) -> Double? {
        guard let stat = readSmallFile("/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Fields after the command start at field 3, so field 22 is index 19.
        guard fields.count > 19, let ticks = Double(fields[19]),
              let uptimeText = readSmallFile("/proc/uptime"),
              let uptime = Double(uptimeText.split(separator: " ").first ?? "") else { return nil }
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return max(0, uptime - ticks / hertz)
    }

    static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var result = Substring(self)
        while result.last == "\n" { result.removeLast() }
        return String(result)
    }
}
