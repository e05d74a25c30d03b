import Glibc

/// The processes of this host that map Foundation's library: what `--foundation` can attach to.
package enum FoundationProcesses {
    package struct Process: Sendable, Equatable {
        package var pid: Int32
        package var name: String
        /// The file holding Foundation's functions in it (its `libFoundationEssentials.so`), as
        /// the process named it: for showing and matching only.
        package var library: String
        /// That file opened through the process's mapping (`/proc/PID/map_files/…`), to read it.
        package var libraryFile: String
        /// The file's identity, `path` and inode: the same path may name different files.
        package var libraryKey: String
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
                let maps = SystemFiles.text("/proc/\(pid)/maps"), maps.contains(FoundationSymbols.libraryName),
                let library = ProcessMaps(maps).mapping(named: FoundationSymbols.libraryName)
            else { continue }
            found.append(
                Process(
                    pid: pid, name: FoundationProbeSession.threadName(pid: pid, tid: pid), library: library.path,
                    libraryFile: library.mapFilesPath(pid: pid), libraryKey: "\(library.path)\u{0}\(library.inode)"))
        }
        return found.sorted { $0.pid < $1.pid }
    }

    /// The threads process `pid` has now (the entries of `/proc/PID/task`); nil when it is gone.
    package static func threadCount(pid: Int32) -> Int? {
        guard let directory = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != 0x2E { count += 1 }  // not "." or ".."
        }
        return count
    }
}
