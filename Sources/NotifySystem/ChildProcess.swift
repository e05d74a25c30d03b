#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child program started with `posix_spawnp`, its standard streams on descriptors the caller
/// chose, in a session of its own: it has no controlling terminal, so it can never prompt on
/// (or draw over) the dashboard's screen, and a Ctrl-C meant for notifytop does not reach it.
/// SIGPIPE, which notifytop ignores, is restored to its default in the child, and it inherits no
/// other descriptor (`closeDescriptorsFromThree`), with or without close-on-exec.
package final class ChildProcess: @unchecked Sendable {  // `ended` is only touched under `lock`
    /// How a child ended.
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// `exit(status)`.
        case exited(Int32)
        /// Killed by this signal.
        case signaled(Int32)

        package var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// What ``run(_:timeoutMilliseconds:maximumOutputBytes:)`` collected.
    package struct Output: Sendable, Equatable {
        /// Nil when the child was killed at the timeout or for writing too much.
        package var termination: Termination?
        package var standardOutput: [UInt8]
        package var standardError: [UInt8]
        /// The child wrote more than the limit on one stream: it was stopped, and that stream's
        /// output holds the first `maximumOutputBytes` only.
        package var exceededOutputLimit = false
    }

    /// The child's process id.
    package let pid: Int32
    private let lock = Lock()
    private var ended: Termination?

    /// Starts `arguments[0]` (looked up on PATH unless it holds a `/`) with `arguments`, reading
    /// `input` and writing `output` and `error`; those descriptors stay the caller's to close. The
    /// child gets `environment` (`NAME=value` entries), or this process's own when nil.
    package init(
        _ arguments: [String], input: Int32, output: Int32, error: Int32, environment: [String]? = nil
    ) throws(TraceError) {
        precondition(!arguments.isEmpty, "a child needs a program")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)
        Self.closeDescriptorsFromThree(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        // POSIX_SPAWN_SETSID is a GNU extension the Glibc module does not import.
        let setSessionID: Int32 = 0x80
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | setSessionID))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let ownEnvironment: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { for pointer in ownEnvironment ?? [] { free(pointer) } }
        func spawn() -> Int32 {
            guard var own = ownEnvironment else {
                return posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, environ)
            }
            return posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, &own)
        }
        var result = spawn()
        // A program file written moments ago can be held open for writing by a child that another
        // thread forked meanwhile, until that child execs: then the file is briefly busy.
        for _ in 0..<50 where result == ETXTBSY {
            usleep(10_000)
            result = spawn()
        }
        guard result == 0 else { throw .system("cannot start \(arguments[0])", result) }
        pid = child
    }

    deinit { _ = terminate(graceMilliseconds: 0) }

    /// How the child ended, without waiting; nil while it runs.
    package func termination() -> Termination? {
        lock.withLock {
            if ended == nil { ended = Self.reap(pid, options: WNOHANG) }
            return ended
        }
    }

    /// Waits up to `timeoutMilliseconds` for the child to end; nil when it still runs.
    package func wait(timeoutMilliseconds: Int) -> Termination? {
        var waited = 0
        while true {
            if let ended = termination() { return ended }
            if waited >= timeoutMilliseconds { return nil }
            usleep(5_000)
            waited += 5
        }
    }

    /// Ends the child: SIGTERM, then SIGKILL when it has not ended after `graceMilliseconds`.
    @discardableResult
    package func terminate(graceMilliseconds: Int = 1_000) -> Termination {
        if let ended = termination() { return ended }
        kill(pid, SIGTERM)
        if let ended = wait(timeoutMilliseconds: graceMilliseconds) { return ended }
        kill(pid, SIGKILL)
        return lock.withLock {
            if ended == nil { ended = Self.reap(pid, options: 0) ?? .signaled(SIGKILL) }
            return ended!
        }
    }

    private static func reap(_ pid: Int32, options: Int32) -> Termination? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, options) } while result < 0 && errno == EINTR
        guard result == pid else { return result < 0 ? .exited(-1) : nil }
        // The <sys/wait.h> macros are not imported: the low 7 bits are the signal, 0 for an exit.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// Adds to `actions`, after the standard streams are in place, the closing of every descriptor
    /// from 3 up, so a descriptor opened without close-on-exec (by this process, a library or
    /// another thread) does not leak into the child. posix_spawn runs no code of ours in the child,
    /// so `close_range` is reached through glibc's `posix_spawn_file_actions_addclosefrom_np`
    /// (2.34, which calls it there); without it (an older glibc, musl) each descriptor open now
    /// is closed by name, which misses one another thread opens before the spawn.
    private static func closeDescriptorsFromThree(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom = SpawnCloseFrom.function, closeFrom(&actions, 3) == 0 { return }
        guard let directory = opendir("/proc/self/fd") else { return }
        var open: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let fd = Int32(name), fd >= 3 { open.append(fd) }
        }
        closedir(directory)
        for fd in open { posix_spawn_file_actions_addclose(&actions, fd) }
    }

    /// A pipe, read end first, both ends close-on-exec (the child gets copies by `dup2`).
    package static func makePipe() throws(TraceError) -> [Int32] {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .system("pipe", errno) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return ends
    }

    /// Runs `arguments` to the end with no input, collecting what it writes; at
    /// `timeoutMilliseconds`, or once it has written more than `maximumOutputBytes` on one
    /// stream, the child is killed and ``Output/termination`` is nil.
    package static func run(
        _ arguments: [String], timeoutMilliseconds: Int, maximumOutputBytes: Int = 16 << 20
    ) throws(TraceError) -> Output {
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .system("cannot open /dev/null", errno) }
        defer { close(input) }
        let out = try makePipe()
        let err: [Int32]
        do {
            err = try makePipe()
        } catch {
            close(out[0])
            close(out[1])
            throw error
        }
        defer {
            close(out[0])
            close(err[0])
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(arguments, input: input, output: out[1], error: err[1])
        } catch {
            close(out[1])
            close(err[1])
            throw error
        }
        close(out[1])
        close(err[1])
        var collected: [[UInt8]] = [[], []]
        var open = [true, true]
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var remaining = timeoutMilliseconds
        var exceeded = false
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        let start = Int(clock.tv_sec) * 1000 + Int(clock.tv_nsec) / 1_000_000
        while open[0] || open[1], remaining > 0, !exceeded {
            var pollers = [out[0], err[0]].enumerated().map { index, fd in
                pollfd(fd: open[index] ? fd : -1, events: Int16(POLLIN), revents: 0)
            }
            let ready = poll(&pollers, 2, Int32(min(remaining, 1_000)))
            if ready < 0 && errno != EINTR { break }
            for index in 0..<2 where open[index] && pollers[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(pollers[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    let room = maximumOutputBytes - collected[index].count
                    collected[index].append(contentsOf: buffer[0..<min(count, room)])
                    if count > room { exceeded = true }
                } else if count == 0 || errno != EINTR {
                    open[index] = false
                }
            }
            clock_gettime(CLOCK_MONOTONIC, &clock)
            remaining = timeoutMilliseconds - (Int(clock.tv_sec) * 1000 + Int(clock.tv_nsec) / 1_000_000 - start)
        }
        let termination =
            open[0] || open[1] || exceeded ? nil : child.wait(timeoutMilliseconds: max(0, remaining))
        if termination == nil { child.terminate(graceMilliseconds: 200) }
        return Output(
            termination: termination, standardOutput: collected[0], standardError: collected[1],
            exceededOutputLimit: exceeded)
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which the Glibc module does not
/// import; nil where the C library lacks it.
private enum SpawnCloseFrom {
    typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    static let function: Function? = {
        guard let handle = dlopen(nil, RTLD_NOW),
            let symbol = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}
