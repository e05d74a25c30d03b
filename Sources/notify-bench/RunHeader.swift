import Foundation

/// The lines printed above the table: the exact command, the profile and the machine's state.
struct RunHeader {
    let options: BenchOptions
    let profile: Profile

    var lines: [String] {
        let arguments = CommandLine.arguments.dropFirst().map(Self.shellQuoted).joined(separator: " ")
        let executable = Self.shellQuoted(CommandLine.arguments.first ?? "notify-bench")
        return [
            "command: \(executable)\(arguments.isEmpty ? "" : " " + arguments)",
            "  (swift run -c release notify-bench\(arguments.isEmpty ? "" : " " + arguments))",
            "profile: \(profile.summary)",
            "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, clock source \(Self.clockSource),"
                + " load average \(Self.loadAverage)",
        ]
    }

    static func shellQuoted(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
        guard !plain || argument.isEmpty else { return argument }
        return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static var clockSource: String {
        read("/sys/devices/system/clocksource/clocksource0/current_clocksource") ?? "unknown"
    }

    static var loadAverage: String {
        read("/proc/loadavg").map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
    }

    private static func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
