import Foundation
import NotifyTUI
import Testing

/// The README's key table is the text `notifytop --help-keys` prints, so the two cannot drift apart.
struct ReadmeKeyTableTests {
    /// The README's fenced block after "Keys (from `notifytop --help-keys`", or nil when it is not there.
    static func readmeKeyTable() throws -> [String]? {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        guard let intro = lines.firstIndex(where: { $0.hasPrefix("Keys (from `notifytop --help-keys`") }),
            let open = lines[intro...].firstIndex(where: { $0.hasPrefix("```") }),
            let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else { return nil }
        return Array(lines[(open + 1)..<close])
    }

    @Test("README's key table is exactly what --help-keys prints")
    func readmeMatchesHelpKeys() throws {
        let readme = try #require(
            try Self.readmeKeyTable(), "README.md has no key table after \"Keys (from `notifytop --help-keys`\"")
        let generated = Keymap.standard.helpLines()
        for (index, (documented, printed)) in zip(readme, generated).enumerated() where documented != printed {
            Issue.record("README key table line \(index + 1): \"\(documented)\", --help-keys prints \"\(printed)\"")
        }
        #expect(
            readme.count == generated.count,
            "README has \(readme.count) key lines, --help-keys prints \(generated.count)")
    }
}
