import Glibc
import NotifySystem

/// Turns addresses into `File.swift:LINE` (or a function's name) through one long-lived
/// `llvm-symbolizer`, asked once per address.
package final class Symbolizer {
    private let child: ChildProcess?
    private let input: Int32
    private var output: LineReader
    private var cache: [String: [String]] = [:]

    /// Starts `llvm-symbolizer` from a trusted place (``TrustedTools/symbolizer()``, never PATH);
    /// without one every answer is empty (sites then read "unknown").
    package init() {
        var child: ChildProcess?
        var input: Int32 = -1
        var output: Int32 = -1
        if let program = TrustedTools.symbolizer(), let toInput = try? ChildProcess.makePipe(),
            let fromOutput = try? ChildProcess.makePipe()
        {
            let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
            child = try? ChildProcess(
                [program, "--demangle", "--functions=linkage"], input: toInput[0], output: fromOutput[1],
                error: null, environment: TrustedTools.environment)
            close(null)
            close(toInput[0])
            close(fromOutput[1])
            input = toInput[1]
            output = fromOutput[0]
            if child == nil {
                close(input)
                close(output)
                input = -1
                output = -1
            }
        }
        self.child = child
        self.input = input
        self.output = LineReader(descriptor: output)
    }

    deinit {
        if input >= 0 { close(input) }
        child?.terminate(graceMilliseconds: 200)
    }

    /// The site of a return address in `path` (relative to where the file was loaded). `path` is
    /// a `/proc/PID/map_files/…` path: nothing the process named goes into a request.
    package func site(path: String, address: UInt64) -> ProbeSite {
        // A return address is the instruction after the call: one byte back is the call's line.
        let lines = ask("CODE \(path) 0x\(String(address &- 1, radix: 16))")
        return Self.site(function: lines.first, location: lines.dropFirst().first)
    }

    /// The symbol at a data address (a type's metadata: "type metadata for App.Cart").
    package func dataSymbol(path: String, address: UInt64) -> String? {
        let lines = ask("DATA \(path) 0x\(String(address, radix: 16))")
        guard let name = lines.first, name != "??", !name.isEmpty else { return nil }
        return name
    }

    /// `File.swift` and line from "/path/File.swift:42:7"; else the function, line 0; else unknown.
    package static func site(function: String?, location: String?) -> ProbeSite {
        if let location {
            let parts = location.split(separator: ":")
            if parts.count >= 2, let line = UInt(parts[1]), line > 0, parts[0] != "??" {
                return ProbeSite(file: String(parts[0].split(separator: "/").last ?? parts[0]), line: line)
            }
        }
        if let function, function != "??", !function.isEmpty { return ProbeSite(file: function, line: 0) }
        return .unknown
    }

    /// One request's answer: its lines up to the blank line that ends it.
    private func ask(_ request: String) -> [String] {
        if let known = cache[request] { return known }
        guard input >= 0 else { return [] }
        let bytes = Array((request + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        var lines: [String] = []
        if written == bytes.count {
            while let line = output.next(timeoutMilliseconds: 2_000), !line.isEmpty { lines.append(line) }
        }
        cache[request] = lines
        return lines
    }
}
