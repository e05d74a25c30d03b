#if canImport(Glibc)
import Glibc
#endif

/// How long the calling thread has waited, runnable, for a CPU: the second field of
/// `/proc/thread-self/schedstat`. Time spent there was taken by other processes (or threads), so a
/// round or trial that waited noticeably did not measure the code alone.
enum RunQueueWait {
    /// Nanoseconds waited since the thread started; nil where the kernel does not report it.
    static func nanoseconds() -> UInt64? {
        wait(path: "/proc/thread-self/schedstat")
    }

    private static func wait(path: String) -> UInt64? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { buffer -> UInt64? in
            let count = read(fd, buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            // "<run ns> <wait ns> <timeslices>\n"
            var field = 0
            var value: UInt64 = 0
            for byte in buffer.prefix(count) {
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") {
                    if field == 1 { return value }
                    field += 1
                    value = 0
                } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    value = value &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                } else {
                    return nil
                }
            }
            return nil
        }
    }

    /// Nanoseconds the threads of this process waited runnable for a CPU since each started:
    /// the sum over `/proc/self/task/*/schedstat`. Compare two readings only while the same
    /// threads live.
    static func processNanoseconds() -> UInt64 {
        guard let directory = opendir("/proc/self/task") else { return 0 }
        defer { closedir(directory) }
        var total: UInt64 = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let tid = Int32(name) else { continue }
            total &+= wait(path: "/proc/self/task/\(tid)/schedstat") ?? 0
        }
        return total
    }

    /// Whether `wait` nanoseconds of waiting leave a measurement of `threads` threads over `wall`
    /// nanoseconds trustworthy: at most 2% of the thread time.
    static func isNegligible(_ wait: UInt64, wall: UInt64, threads: Int = 1) -> Bool {
        Double(wait) <= 0.02 * Double(wall) * Double(threads)
    }
}
