/// Whether the probes could attach to a process, as the overview says it before attaching: the
/// file that holds Foundation's functions, and whether the symbols they need are in it.
package enum FoundationReadiness: Sendable, Equatable, CustomStringConvertible {
    /// Every symbol is there: the probes can attach.
    case symbolsPresent(statically: Bool)
    /// The file has no symbol table.
    case stripped(statically: Bool)
    /// The file has symbols, but not every one the probes need (another Foundation build).
    case differs(missing: [String])
    /// The file could not be read (the process ended, or is not readable by this user).
    case unreadable(String)

    /// Checks the file in which process `pid` holds Foundation's functions.
    package static func check(pid: Int32) -> FoundationReadiness {
        guard let maps = ProcessMaps.read(pid: pid) else { return .unreadable("/proc/\(pid)/maps") }
        if let library = maps.mapping(named: FoundationSymbols.libraryName) {
            return check(file: library.mapFilesPath(pid: pid), statically: false)
        }
        guard let executable = maps.executableMapping else { return .unreadable("/proc/\(pid)/maps") }
        return check(file: executable.mapFilesPath(pid: pid), statically: true)
    }

    /// Checks one file: a `libFoundationEssentials.so`, or an executable that links Foundation in,
    /// read through its mapping (`/proc/PID/map_files/…`); only a regular file, and only up to
    /// ``SystemFiles/mappedFileLimit``, is read.
    package static func check(file: String, statically: Bool) -> FoundationReadiness {
        guard let bytes = SystemFiles.bytes(file, followsLinks: true),
            let symbols = ELFSymbols(bytes: bytes, looking: Set(FoundationSymbols.required))
        else { return .unreadable(file) }
        return readiness(hasSymbolTable: symbols.hasSymbolTable, found: symbols.found, statically: statically)
    }

    /// The readiness of a file with (or without) a symbol table defining `found` of the symbols.
    package static func readiness(hasSymbolTable: Bool, found: Set<String>, statically: Bool) -> FoundationReadiness {
        let missing = FoundationPreflight.missing(found: found)
        if missing.isEmpty { return .symbolsPresent(statically: statically) }
        // Without `.symtab` the closure that calls observers (a local symbol) is gone with it.
        return hasSymbolTable ? .differs(missing: missing) : .stripped(statically: statically)
    }

    /// Whether attaching can work, as far as the file tells.
    package var canAttach: Bool {
        if case .symbolsPresent = self { return true }
        return false
    }

    package var description: String {
        switch self {
        case .symbolsPresent(let statically): statically ? "static, symbols present" : "symbols present"
        case .stripped(let statically): statically ? "static, stripped: cannot attach" : "stripped: cannot attach"
        case .differs(let missing): "Foundation differs (missing \(missing.joined(separator: ", "))): cannot attach"
        case .unreadable(let file): "cannot read \(file)"
        }
    }
}
