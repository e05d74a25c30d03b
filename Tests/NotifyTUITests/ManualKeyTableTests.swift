import Foundation
import NotifyTUI
import Testing

/// The dashboard manual's key table is the text `notifytop --help-keys` prints, so the two cannot drift apart.
struct ManualKeyTableTests {
    /// docs/dashboard.md's fenced block after "Keys (from `notifytop --help-keys`", or nil when it is not there.
    static func manualKeyTable() throws -> [String]? {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manual = try String(contentsOf: root.appendingPathComponent("docs/dashboard.md"), encoding: .utf8)
        let lines = manual.components(separatedBy: "\n")
        guard let intro = lines.firstIndex(where: { $0.hasPrefix("Keys (from `notifytop --help-keys`") }),
            let open = lines[intro...].firstIndex(where: { $0.hasPrefix("```") }),
            let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else { return nil }
        return Array(lines[(open + 1)..<close])
    }

    @Test("docs/dashboard.md's key table is exactly what --help-keys prints")
    func manualMatchesHelpKeys() throws {
        let manual = try #require(
            try Self.manualKeyTable(), "docs/dashboard.md has no key table after \"Keys (from `notifytop --help-keys`\""
        )
        let generated = Keymap.standard.helpLines()
        for (index, (documented, printed)) in zip(manual, generated).enumerated() where documented != printed {
            Issue.record("manual key table line \(index + 1): \"\(documented)\", --help-keys prints \"\(printed)\"")
        }
        #expect(
            manual.count == generated.count,
            "docs/dashboard.md has \(manual.count) key lines, --help-keys prints \(generated.count)")
    }
}
