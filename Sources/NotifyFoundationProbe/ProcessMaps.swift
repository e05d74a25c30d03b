/// The files a process maps, from `/proc/PID/maps`: where Foundation lives in it, and which file
/// and file-relative address an address of its falls in.
package struct ProcessMaps: Sendable, Equatable {
    package struct Mapping: Sendable, Equatable {
        package var start: UInt64
        package var end: UInt64
        package var offset: UInt64
        package var path: String
    }

    package var mappings: [Mapping]

    /// Parses the text of `/proc/PID/maps`; lines without a file are left out.
    package init(_ text: String) {
        mappings = text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            // The path is padded with spaces to a column.
            guard fields.count == 6, let path = Optional(fields[5].drop { $0 == " " }), path.hasPrefix("/") else {
                return nil
            }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt64(range[0], radix: 16), let end = UInt64(range[1], radix: 16),
                let offset = UInt64(fields[2], radix: 16)
            else { return nil }
            return Mapping(start: start, end: end, offset: offset, path: String(path))
        }
    }

    /// Reads `/proc/PID/maps`; nil when the process is gone or cannot be read.
    package static func read(pid: Int32) -> ProcessMaps? {
        guard let text = SystemFiles.text("/proc/\(pid)/maps") else { return nil }
        return ProcessMaps(text)
    }

    /// The mapped file whose name is `fileName` (`libFoundationEssentials.so`), nil if none.
    package func path(named fileName: String) -> String? {
        mappings.first { $0.path.hasSuffix("/" + fileName) }?.path
    }

    /// The first file mapped, which is the executable.
    package var executable: String? { mappings.first?.path }

    /// The file `address` falls in and the address relative to where that file was loaded (its
    /// lowest mapping), as `llvm-symbolizer` takes it for a shared object or a PIE.
    package func locate(_ address: UInt64) -> (path: String, address: UInt64)? {
        guard let mapping = mappings.first(where: { $0.start <= address && address < $0.end }) else { return nil }
        let base = mappings.lazy.filter { $0.path == mapping.path }.map { $0.start - $0.offset }.min() ?? mapping.start
        return (mapping.path, address - base)
    }

    /// Whether `address` is in one of Foundation's own libraries.
    package func isFoundation(_ address: UInt64) -> Bool {
        guard let path = locate(address)?.path else { return false }
        let file = path.split(separator: "/").last ?? ""
        return file.hasPrefix("libFoundation") || file.hasPrefix("lib_Foundation")
    }
}
