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
    /// of this user (a symbolic link, not a directory, another user's, or open to others), since
    /// then another user could read the traces or plant sockets. A directory that already existed
    /// is never changed.
    package func prepare() throws(TraceError) {
        if mkdir(path, 0o700) == 0 {
            // Created now, so it is ours: make sure the umask left it 0700, without following a link.
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { throw .system("cannot open \(path)", errno) }
            defer { close(fd) }
            fchmod(fd, 0o700)
            return
        }
        guard errno == EEXIST else { throw .system("cannot create \(path)", errno) }
        if let problem { throw problem }
    }

    /// Why the directory must not be used, or nil when it is a private directory of this user
    /// (or does not exist yet).
    package var problem: TraceError? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT ? nil : .system("cannot inspect \(path)", errno)
        }
        let fix = "remove it, or set XDG_RUNTIME_DIR to a private directory"
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return .invalid("\(path) is a symbolic link, not a directory; refusing to follow it: \(fix)")
        default: return .invalid("\(path) exists but is not a directory: \(fix)")
        }
        guard info.st_uid == getuid() else {
            return .invalid("\(path) belongs to uid \(info.st_uid), not to you (uid \(getuid())): \(fix)")
        }
        guard info.st_mode & 0o077 == 0 else {
            return .invalid(
                "\(path) is open to other users (mode \(String(info.st_mode & 0o777, radix: 8))): "
                    + "run chmod 700 \(path), or remove it")
        }
        return nil
    }

    /// The processes with a socket here, oldest first. Only sockets of this user count; those of
    /// processes that no longer exist (or are no longer this user's) are removed on the way.
    /// Nothing is listed from a directory with a `problem`.
    public func inspectableProcesses() -> [InspectableProcess] {
        guard problem == nil else { return [] }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0, let directory = fdopendir(fd) else { return [] }
        defer { closedir(directory) }
        var found: [InspectableProcess] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasSuffix(".sock"), let pid = Int32(name.dropLast(5)), pid > 0 else { continue }
            var info = stat()
            guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
                info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid()
            else { continue }
            guard ProcessInfoReader.isInspectable(pid) else {
                unlinkat(fd, name, 0)
                continue
            }
            found.append(
                InspectableProcess(
                    pid: pid, socketPath: "\(path)/\(name)", name: ProcessInfoReader.name(of: pid),
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
    /// Seconds since the process started, when /proc (or a remote host's listing) tells: finite,
    /// not negative and at most `maximumUptimeSeconds`; nil otherwise.
    public let uptimeSeconds: Double?

    /// About 31 years: longer is not an uptime but a lie or a corrupt listing, and would overflow
    /// nanosecond arithmetic downstream.
    package static let maximumUptimeSeconds: Double = 1e9

    /// A process as another host's listing describes it (see the ssh transport). An uptime that
    /// is not finite, is negative or exceeds ``maximumUptimeSeconds`` is taken as unknown.
    package init(pid: Int32, socketPath: String, name: String, uptimeSeconds: Double?) {
        self.pid = pid
        self.socketPath = socketPath
        self.name = name
        self.uptimeSeconds = uptimeSeconds.flatMap(Self.plausibleUptime)
    }

    /// `seconds` when it can be an uptime, else nil.
    package static func plausibleUptime(_ seconds: Double) -> Double? {
        seconds.isFinite && seconds >= 0 && seconds <= maximumUptimeSeconds ? seconds : nil
    }
}

/// Reads what /proc says about a process.
package enum ProcessInfoReader {
    /// Alive and run by this user, so its socket can be ours.
    package static func isInspectable(_ pid: Int32) -> Bool {
        var info = stat()
        return kill(pid, 0) == 0 && stat("/proc/\(pid)", &info) == 0 && info.st_uid == getuid()
    }

    package static func name(of pid: Int32) -> String {
        (readSmallFile("/proc/\(pid)/comm") ?? "?").trimmingTrailingNewlines()
    }

    /// From field 22 of /proc/<pid>/stat (start time in clock ticks since boot) and /proc/uptime.
    package static func uptimeSeconds(of pid: Int32) -> Double? {
        guard let stat = readSmallFile("/proc/\(pid)/stat"),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Fields after the command start at field 3, so field 22 is index 19.
        guard fields.count > 19, let ticks = Double(fields[19]),
            let uptimeText = readSmallFile("/proc/uptime"),
            let uptime = Double(uptimeText.split(separator: " ").first ?? "")
        else { return nil }
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return max(0, uptime - ticks / hertz)
    }

    package static func readSmallFile(_ path: String) -> String? {
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
