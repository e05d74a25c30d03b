import Glibc
import NotifyFoundationProbe
import NotifySystem
import NotifyTestSupport
import Testing

/// `--foundation` ends a view whose process is gone or whose pid another process took, so the
/// new one's posts are never filed under the old one. The pid is taken for real: as root, the
/// kernel is told which pid to hand out next (`ns_last_pid`).
@Suite(.serialized) struct PidReuseTests {
    static let canChoosePids = getuid() == 0 && access("/proc/sys/kernel/ns_last_pid", W_OK) == 0

    @Test("a live process is not replaced; gone, it is; its pid taken by another process, it is")
    func pidTakenByAnotherProcess() throws {
        let sleeper = try #require(Self.spawnSleeper())
        let first = sleeper.pid
        let started = try #require(FoundationProbeSession.startTime(pid: first))
        #expect(!FoundationProbeSession.processReplaced(pid: first, startedAt: started))
        // The start time counts clock ticks: the next process starts in a later one.
        usleep(50_000)
        sleeper.terminate(graceMilliseconds: 0)
        #expect(FoundationProbeSession.processReplaced(pid: first, startedAt: started))

        guard Self.canChoosePids else { return }
        var second: ChildProcess?
        for _ in 0..<20 {
            Self.setLastPid(first - 1)
            guard let child = Self.spawnSleeper() else { break }
            if child.pid == first {
                second = child
                break
            }
            child.terminate(graceMilliseconds: 0)
        }
        let reused = try #require(second, "pid \(first) was not handed out again")
        defer { reused.terminate(graceMilliseconds: 0) }
        #expect(FoundationProbeSession.startTime(pid: reused.pid) != nil)
        #expect(FoundationProbeSession.processReplaced(pid: first, startedAt: started))
    }

    private static func spawnSleeper() -> ChildProcess? { try? ChildProcess.start(["/bin/sleep", "30"]) }

    private static func setLastPid(_ pid: pid_t) {
        let fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let text = Array("\(pid)".utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
