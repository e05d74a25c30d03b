import Glibc

/// Why the probes cannot attach: one line naming what is missing and, where there is one, the fix.
package struct FoundationAttachError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}

/// What attaching needs, checked before bpftrace starts: the process, the privileges, bpftrace,
/// tracefs, and Foundation's functions in the process's own mapping.
package enum FoundationPreflight {
    /// What the probes attach to in process `pid`: its maps, and the mapping of the file to probe
    /// (its `libFoundationEssentials.so`, or its executable when Foundation is linked into it
    /// statically). The file is read through the mapping, never by the path the process chose.
    package static func check(pid: Int32) throws(FoundationAttachError) -> (
        maps: ProcessMaps, library: ProcessMaps.Mapping
    ) {
        guard pid > 0, SystemFiles.exists("/proc/\(pid)") else { throw FoundationAttachError("no process \(pid)") }
        guard hasPrivileges() else {
            throw FoundationAttachError(
                "attaching probes needs root, or CAP_BPF and CAP_PERFMON: run notifytop with sudo")
        }
        guard TrustedTools.bpftrace() != nil else {
            throw FoundationAttachError(
                "bpftrace is not installed in \(TrustedTools.bpftraceLocations.joined(separator: " or ")) "
                    + "(Debian and Ubuntu: apt-get install bpftrace)")
        }
        guard tracefsMounted() else {
            throw FoundationAttachError("tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing")
        }
        guard let maps = ProcessMaps.read(pid: pid) else {
            throw FoundationAttachError("cannot read /proc/\(pid)/maps: the process ended or is not yours")
        }
        if let library = maps.mapping(named: FoundationSymbols.libraryName) {
            try checkSymbols(in: library, pid: pid, statically: false)
            return (maps, library)
        }
        guard let executable = maps.executableMapping else {
            throw FoundationAttachError("pid \(pid) maps no file: not a Swift program")
        }
        try checkSymbols(in: executable, pid: pid, statically: true)
        return (maps, executable)
    }

    /// The short names of the functions missing from a file that defines `found` of them.
    package static func missing(found: Set<String>) -> [String] {
        FoundationSymbols.required.filter { !found.contains($0) }.map(shortName)
    }

    static func shortName(_ symbol: String) -> String {
        switch symbol {
        case FoundationSymbols.addObserver: "NotificationCenter._addObserver"
        case FoundationSymbols.post: "NotificationCenter._post"
        case FoundationSymbols.removeObserver: "NotificationCenter._removeObserver"
        case FoundationSymbols.centerDeinit: "NotificationCenter.deinit"
        default: "the closure that calls an observer"
        }
    }

    private static func checkSymbols(
        in mapping: ProcessMaps.Mapping, pid: Int32, statically: Bool
    ) throws(FoundationAttachError) {
        let path = VisibleText.line(mapping.path)
        guard let bytes = SystemFiles.bytes(mapping.mapFilesPath(pid: pid), followsLinks: true) else {
            throw FoundationAttachError(
                "cannot read \(path) (mapped by pid \(pid)): gone, not a regular file or over "
                    + "\(SystemFiles.mappedFileLimit >> 20) MiB")
        }
        guard let symbols = ELFSymbols(bytes: bytes, looking: Set(FoundationSymbols.required)) else {
            throw FoundationAttachError("\(path) is not a 64-bit ELF file")
        }
        let missing = missing(found: symbols.found)
        if missing.isEmpty { return }
        if statically && symbols.found.isEmpty {
            let library = FoundationSymbols.libraryName
            throw FoundationAttachError(
                symbols.hasSymbolTable
                    ? "pid \(pid) does not use Foundation: it maps no \(library) and \(path) has no NotificationCenter"
                    : "pid \(pid) maps no \(library) and \(path) is stripped: it does not use Foundation, "
                        + "or links it statically without symbols (link it without stripping)")
        }
        throw FoundationAttachError(
            "\(path): this Foundation's NotificationCenter differs from the one the probes know (Swift 6.3): "
                + "missing " + missing.joined(separator: ", "))
    }

    /// Root, or both CAP_BPF (39) and CAP_PERFMON (38) in the effective set.
    private static func hasPrivileges() -> Bool {
        if geteuid() == 0 { return true }
        guard let status = SystemFiles.text("/proc/self/status"),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let field = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last,
            let bits = UInt64(field, radix: 16)
        else { return false }
        return bits & (1 << 39) != 0 && bits & (1 << 38) != 0
    }

    private static func tracefsMounted() -> Bool {
        SystemFiles.exists("/sys/kernel/tracing/uprobe_events")
            || SystemFiles.exists("/sys/kernel/debug/tracing/uprobe_events")
    }
}
