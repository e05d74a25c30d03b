import Glibc
import NotifyFoundationProbe
import Testing

/// `--foundation` ends a view whose process is gone or whose pid another process took, so the
/// new one's posts are never filed under the old one. The pid is taken for real: as root, the
/// kernel is told which pid to hand out next (`ns_last_pid`).
@Suite(.serialized) struct PidReuseTests {
    static let canChoosePids = getuid() == 0 && access("/proc/sys/kernel/ns_last_pid", W_OK) == 0

    @Test("a live process is not replaced; gone, it is; its pid taken by another process, it is")
    func pidTakenByAnotherProcess() throws {
        let first = try #require(Self.spawnSleeper())
        let started = try #require(FoundationProbeSession.startTime(pid: first))
        #expect(!FoundationProbeSession.processReplaced(pid: first, startedAt: started))
        // The start time counts clock ticks: the next process starts in a later one.
        usleep(50_000)
        Self.end(first)
        #expect(FoundationProbeSession.processReplaced(pid: first, startedAt: started))

        guard Self.canChoosePids else { return }
        var second: pid_t?
        for _ in 0..<20 {
            Self.setLastPid(first - 1)
            guard let pid = Self.spawnSleeper() else { break }
            if pid == first {
                second = pid
                break
            }
            Self.end(pid)
        }
        let reused = try #require(second, "pid \(first) was not handed out again")
        defer { Self.end(reused) }
        #expect(FoundationProbeSession.startTime(pid: reused) != nil)
        #expect(FoundationProbeSession.processReplaced(pid: first, startedAt: started))
    }

    private static func spawnSleeper() -> pid_t? {
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
        defer { for argument in arguments { free(argument) } }
        return posix_spawn(&pid, "/bin/sleep", nil, nil, arguments, environ) == 0 ? pid : nil
    }

    private static func end(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    private static func setLastPid(_ pid: pid_t) {
        let fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let text = Array("\(pid)".utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
