#if canImport(Glibc)
import Glibc
#endif

/// notifytop's own CPU use, shown in the header so its overhead is visible (bpytop#57, btop#932).
package struct CPUMeter {
    private var lastCPU = Self.cpuNanoseconds()
    private var lastWall = Self.wallNanoseconds()
    /// Percent of one core over the last measurement interval.
    private(set) var percent: Double?
    /// The last minute of ``percent`` readings, oldest first: the header's sparkline.
    private(set) var history: [Double] = []

    /// Updates ``percent`` when at least a second has passed.
    mutating func sample() {
        let wall = Self.wallNanoseconds()
        guard wall - lastWall >= 1_000_000_000 else { return }
        let cpu = Self.cpuNanoseconds()
        let reading = Double(cpu - lastCPU) / Double(wall - lastWall) * 100
        percent = reading
        history.append(reading)
        if history.count > 60 { history.removeFirst(history.count - 60) }
        lastCPU = cpu
        lastWall = wall
    }

    /// User and system CPU time of every thread of this process, in nanoseconds.
    package static func cpuNanoseconds() -> UInt64 {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let user = UInt64(usage.ru_utime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_utime.tv_usec) * 1_000
        let system = UInt64(usage.ru_stime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_stime.tv_usec) * 1_000
        return user + system
    }

    /// CLOCK_MONOTONIC, the clock trace timestamps use, so live ticks line up with event times.
    package static func wallNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
