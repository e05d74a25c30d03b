import Foundation

/// A group of benchmarks that share a setup; each produces rows of the report.
protocol Workload {
    /// The names of the rows it can produce, which `--filter` matches.
    var rowNames: [String] { get }
    /// Measures the rows `options` selects, in `rowNames` order.
    func run(_ options: BenchOptions) throws -> [Row]
}

extension Workload {
    func selectsAny(_ options: BenchOptions) -> Bool {
        rowNames.contains(where: options.selects)
    }

    /// One row per key whose row name `options` selects, in `keys` order (observer counts,
    /// layouts, views): reports progress, then `measure` makes the row from the key and its name.
    func selectedRows<Key>(
        _ keys: [Key], named rowName: (Key) -> String, _ options: BenchOptions,
        measure: (_ key: Key, _ name: String) throws -> Row
    ) rethrows -> [Row] {
        var rows: [Row] = []
        for key in keys {
            let name = rowName(key)
            guard options.selects(name) else { continue }
            progress(name)
            rows.append(try measure(key, name))
        }
        return rows
    }
}

/// Progress on standard error, so standard output holds only the report.
func progress(_ message: String) {
    var standardError = StandardError()
    print("  measuring \(message)…", to: &standardError)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
