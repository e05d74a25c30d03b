import Foundation

/// What is printed above the table: the exact command, the profile and the machine's state.
struct RunHeader {
    let profile: Profile

    /// The header as plain lines, or as a Markdown list with the commands in code spans.
    func text(markdown: Bool) -> String {
        let arguments = CommandLine.arguments.dropFirst().map(Self.shellQuoted).map { " " + $0 }.joined()
        let executable = Self.shellQuoted(CommandLine.arguments.first ?? "notify-bench")
        let code = { (command: String) in markdown ? "`\(command)`" : command }
        let lines = [
            "command: \(code(executable + arguments))"
                + " (that is, \(code("swift run -c release notify-bench" + arguments)))",
            "profile: \(profile.summary)",
            "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, clock source \(Self.clockSource),"
                + " load average \(Self.loadAverage)",
        ]
        return lines.map { markdown ? "- " + $0 : $0 }.joined(separator: "\n")
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
