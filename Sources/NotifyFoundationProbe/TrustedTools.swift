import Glibc

/// The programs `--foundation` runs as root, from fixed places only, never from PATH: a PATH a
/// user set (a root shell with a user's environment, `sudo -E`) must not choose what root runs.
/// A program is trusted when it and every directory above it (links resolved) are owned by root
/// and writable by no group or other user.
package enum TrustedTools {
    /// The environment those programs run with: none of the caller's variables (a user's
    /// `BPFTRACE_*` settings or PATH under `sudo -E` are not root's to take).
    package static let environment = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"]

    /// Where `bpftrace` is looked for, in order.
    package static let bpftraceLocations = ["/usr/bin/bpftrace", "/usr/sbin/bpftrace", "/usr/local/bin/bpftrace"]

    /// The first trusted `bpftrace` of ``bpftraceLocations``, nil when none is.
    package static func bpftrace() -> String? {
        bpftraceLocations.lazy.compactMap { trusted($0) }.first
    }

    /// Where `llvm-symbolizer` is looked for, in order: the Swift toolchain notifytop itself runs
    /// from (the directory of the Swift runtime it loaded, `…/usr/lib/swift/linux` → `…/usr/bin`),
    /// `/usr/bin`, then `/usr/lib/llvm-N/bin`, newest first.
    package static func symbolizerLocations() -> [String] {
        var locations: [String] = []
        if let toolchain = ownToolchainBin() { locations.append(toolchain + "/llvm-symbolizer") }
        locations.append("/usr/bin/llvm-symbolizer")
        let versions = directoryEntries("/usr/lib").compactMap { entry -> Int? in
            entry.hasPrefix("llvm-") ? Int(entry.dropFirst(5)) : nil
        }
        for version in versions.sorted(by: >) { locations.append("/usr/lib/llvm-\(version)/bin/llvm-symbolizer") }
        return locations
    }

    /// The first trusted `llvm-symbolizer` of ``symbolizerLocations()``, nil when none is.
    package static func symbolizer() -> String? {
        symbolizerLocations().lazy.compactMap { trusted($0) }.first
    }

    /// `path` with its links resolved when it is a regular executable file that only root can
    /// have changed: it and every directory above it owned by root, none writable by group or
    /// others; else nil.
    package static func trusted(_ path: String, owner: UInt32 = 0) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let real = String(cString: resolved)
        var status = stat()
        guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o111 != 0,
            isRootOnly(status, owner: owner)
        else { return nil }
        var directory = real
        while let slash = directory.lastIndex(of: "/") {
            directory = slash == directory.startIndex ? "/" : String(directory[..<slash])
            guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, isRootOnly(status, owner: owner)
            else { return nil }
            if directory == "/" { break }
        }
        return real
    }

    private static func isRootOnly(_ status: stat, owner: UInt32) -> Bool {
        status.st_uid == owner && status.st_mode & 0o022 == 0
    }

    /// The `bin` directory of the toolchain whose Swift runtime this process loaded, from its own
    /// `/proc/self/maps` (root's own process: not a watched one's).
    private static func ownToolchainBin() -> String? {
        guard let maps = ProcessMaps.read(pid: getpid()),
            let runtime = maps.path(named: "libswiftCore.so"), runtime.hasSuffix("/lib/swift/linux/libswiftCore.so")
        else { return nil }
        return String(runtime.dropLast("/lib/swift/linux/libswiftCore.so".count)) + "/bin"
    }

    private static func directoryEntries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(
                withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                })
        }
        return names
    }
}
