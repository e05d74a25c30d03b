/// The files a process maps, from `/proc/PID/maps`: where Foundation lives in it, and which file
/// and file-relative address an address of its falls in.
///
/// A mapped file's name is the process's to choose: it is matched and shown, never opened or put
/// into a program. Each file is reached through its mapping (``Mapping/mapFilesPath(pid:)``),
/// which names the very file the process mapped whatever its path says now.
package struct ProcessMaps: Sendable, Equatable {
    package struct Mapping: Sendable, Equatable {
        package var start: UInt64
        package var end: UInt64
        package var offset: UInt64
        package var inode: UInt64
        /// The path as the kernel means it (a newline, which the maps file writes `\012`, is one).
        package var path: String

        /// `/proc/PID/map_files/START-END`: the mapped file itself, opened through the process. Only
        /// digits, hex digits and punctuation.
        package func mapFilesPath(pid: Int32) -> String {
            "/proc/\(pid)/map_files/\(String(start, radix: 16))-\(String(end, radix: 16))"
        }
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
                let offset = UInt64(fields[2], radix: 16), let inode = UInt64(fields[4])
            else { return nil }
            return Mapping(start: start, end: end, offset: offset, inode: inode, path: Self.unescaped(path))
        }
    }

    /// The kernel writes a newline in a mapped file's path as `\012` (and nothing else escaped).
    static func unescaped(_ path: Substring) -> String {
        guard path.contains("\\012") else { return String(path) }
        return String(path.replacing("\\012", with: "\n"))
    }

    /// Reads `/proc/PID/maps`; nil when the process is gone or cannot be read.
    package static func read(pid: Int32) -> ProcessMaps? {
        guard let text = SystemFiles.text("/proc/\(pid)/maps") else { return nil }
        return ProcessMaps(text)
    }

    /// The first mapping of the file whose name is `fileName` (`libFoundationEssentials.so`), nil if none.
    package func mapping(named fileName: String) -> Mapping? {
        mappings.first { $0.path.hasSuffix("/" + fileName) }
    }

    /// The path of the file whose name is `fileName`, nil if none.
    package func path(named fileName: String) -> String? { mapping(named: fileName)?.path }

    /// The first mapping, which is the executable's.
    package var executableMapping: Mapping? { mappings.first }

    /// The first file mapped, which is the executable.
    package var executable: String? { mappings.first?.path }

    /// The file `address` falls in and the address relative to where that file was loaded (its
    /// lowest mapping, also returned), as `llvm-symbolizer` takes it for a shared object or a PIE.
    package func locate(_ address: UInt64) -> (path: String, address: UInt64, base: Mapping)? {
        guard let mapping = mappings.first(where: { $0.start <= address && address < $0.end }) else { return nil }
        let sameFile = mappings.lazy.filter { $0.path == mapping.path && $0.inode == mapping.inode }
        let base = sameFile.min { $0.start &- $0.offset < $1.start &- $1.offset } ?? mapping
        return (mapping.path, address &- (base.start &- base.offset), base)
    }

    /// Whether `address` is in one of Foundation's own libraries.
    package func isFoundation(_ address: UInt64) -> Bool {
        guard let path = locate(address)?.path else { return false }
        let file = path.split(separator: "/").last ?? ""
        return file.hasPrefix("libFoundation") || file.hasPrefix("lib_Foundation")
    }
}
