import Foundation
import NotifyLeakBaseline
import NotifyModel
@testable import NotifySession
import NotifyTUI
import Testing

/// The JSON files notifytop writes for people to read (a Ctrl-S table, a leak baseline): keys
/// sorted, indented, slashes as typed, one newline at the end, byte for byte.
struct PrettyJSONTests {
    @Test("one encoder set-up for both: indented, keys sorted, slashes as typed, a newline at the end")
    func text() throws {
        #expect(try PrettyJSON.text(["b": "x/y", "a": "1"]) == "{\n  \"a\" : \"1\",\n  \"b\" : \"x/y\"\n}\n")
    }

    @Test("a Ctrl-S JSON export: columns, one object per row with sorted keys, the marks")
    func viewExport() throws {
        let content = TableContent(
            view: "log", columns: ["TIME", "TEXT"], rows: [["1.0", "a/b"]],
            notes: [TableContent.Note(beforeRow: 1, text: "mark 1")])
        let expected = """
            {
              "columns" : [
                "TIME",
                "TEXT"
              ],
              "marks" : [
                {
                  "beforeRow" : 1,
                  "text" : "mark 1"
                }
              ],
              "rows" : [
                {
                  "TEXT" : "a/b",
                  "TIME" : "1.0"
                }
              ],
              "view" : "log"
            }

            """
        #expect(try ViewExporter.json(content) == expected)
    }

    @Test("a leak baseline: its version, then the signatures sorted")
    func baseline() {
        let baseline = LeakBaseline(signatures: [
            LeakSignature(rule: .neverPosted, name: "b", site: "App/B.swift:2", ownerType: nil),
            LeakSignature(rule: .registrationGrowth, name: "a", site: "App/A.swift:1", ownerType: "App.Screen"),
        ])
        let expected = """
            {
              "notifytopBaseline" : 1,
              "signatures" : [
                {
                  "name" : "a",
                  "owner" : "App.Screen",
                  "rule" : "R6",
                  "site" : "App/A.swift:1"
                },
                {
                  "name" : "b",
                  "rule" : "R10",
                  "site" : "App/B.swift:2"
                }
              ]
            }

            """
        #expect(baseline.json == expected)
    }
}
