import Glibc

/// The processes of this host that map Foundation's library: what `--foundation` can attach to.
package enum FoundationProcesses {
    package struct Process: Sendable, Equatable {
        package var pid: Int32
        package var name: String
    }

    /// Every process whose `/proc/PID/maps` names `libFoundationEssentials.so`, by pid.
    package static func list() -> [Process] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var found: [Process] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            guard let pid = Int32(name), pid != getpid(),
                let maps = SystemFiles.text("/proc/\(pid)/maps"), maps.contains(FoundationSymbols.libraryName)
            else { continue }
            found.append(Process(pid: pid, name: FoundationProbeSession.threadName(pid: pid, tid: pid)))
        }
        return found.sorted { $0.pid < $1.pid }
    }
}
