/// Which of some symbol names an ELF file (64-bit, little-endian) defines, read from its symbol
/// tables (`.symtab`, which stripping removes, and `.dynsym`).
package struct ELFSymbols: Sendable, Equatable {
    /// The names asked for that the file defines.
    package var found: Set<String>
    /// The value (address in the file) of each name found.
    package var values: [String: UInt64] = [:]
    /// Whether the file has a full symbol table (`.symtab`): without one it was stripped.
    package var hasSymbolTable: Bool

    /// Nil when `bytes` are not a 64-bit little-endian ELF file.
    package init?(bytes: [UInt8], looking names: Set<String>) {
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
            bytes[4] == 2, bytes[5] == 1
        else { return nil }
        let reader = LittleEndian(bytes: bytes)
        let sectionsAt = reader.u64(0x28)
        let sectionSize = UInt64(reader.u16(0x3A))
        let sectionCount = UInt64(reader.u16(0x3C))
        let wanted = Set(names.map { Array($0.utf8) })
        let lengths = Set(wanted.map(\.count))
        found = []
        hasSymbolTable = false
        for index in 0..<sectionCount {
            let header = sectionsAt + index * sectionSize
            let type = reader.u32(header + 4)
            guard type == 2 || type == 11 else { continue }  // SHT_SYMTAB, SHT_DYNSYM
            if type == 2 { hasSymbolTable = true }
            let offset = reader.u64(header + 0x18)
            let size = reader.u64(header + 0x20)
            let strings = sectionsAt + UInt64(reader.u32(header + 0x28)) * sectionSize
            let stringsAt = reader.u64(strings + 0x18)
            var entry = offset
            while entry + 24 <= offset + size, entry + 24 <= UInt64(bytes.count) {
                // Undefined symbols (section index 0) are only references to another file's.
                guard reader.u16(entry + 6) != 0 else {
                    entry += 24
                    continue
                }
                let name = reader.cString(stringsAt + UInt64(reader.u32(entry)), lengths: lengths)
                if let name, wanted.contains(name) {
                    let text = String(decoding: name, as: UTF8.self)
                    found.insert(text)
                    values[text] = reader.u64(entry + 8)
                }
                entry += 24
            }
        }
    }
}

/// Bounds-checked little-endian reads; out of range reads are 0 or empty.
private struct LittleEndian {
    let bytes: [UInt8]

    func u16(_ at: UInt64) -> UInt16 { UInt16(truncatingIfNeeded: read(at, 2)) }
    func u32(_ at: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: read(at, 4)) }
    func u64(_ at: UInt64) -> UInt64 { read(at, 8) }

    private func read(_ at: UInt64, _ count: Int) -> UInt64 {
        guard at <= UInt64(bytes.count), Int(at) + count <= bytes.count else { return 0 }
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[Int(at) + index]) << (8 * UInt64(index)) }
        return value
    }

    /// The NUL-terminated string at `at` when its length is one of `lengths`.
    func cString(_ at: UInt64, lengths: Set<Int>) -> [UInt8]? {
        guard at < UInt64(bytes.count) else { return nil }
        let start = Int(at)
        let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
        return lengths.contains(end - start) ? Array(bytes[start..<end]) : nil
    }
}
