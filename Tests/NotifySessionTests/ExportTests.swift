import Foundation
import NotifySession
import NotifyTUI
import NotifyTUITestSupport
import NotifyTestSupport
import Testing

/// A fresh directory for one test's files.
private func scratch() throws -> String {
    let path = temporaryPath("export")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

private func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

struct ExportTests {
    @Test("CSV quotes fields with commas, quotes and line breaks, doubling quotes")
    func csvEscaping() {
        let content = TableContent(
            view: "names", columns: ["NAME", "NOTE"],
            rows: [["a,b", "say \"hi\""], ["line\nbreak", "plain"], ["cr\r\nlf", ""]])
        #expect(content.csv == "NAME,NOTE\r\n\"a,b\",\"say \"\"hi\"\"\"\r\n\"line\nbreak\",plain\r\n\"cr\r\nlf\",\r\n")
        #expect(TableContent.csvField("plain") == "plain")
    }

    @Test("text export aligns columns in terminal cells, CJK included")
    func textAlignment() {
        let content = TableContent(view: "names", columns: ["NAME", "POSTS"], rows: [["通知", "4"], ["cart", "12"]])
        #expect(content.text == "NAME  POSTS\n通知  4\ncart  12\n")
    }

    @Test("Ctrl-S saves every filtered row, not only the visible ones; export csv/json switch the format")
    func saveAllRows() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = DashboardSession(source: .fixed(Fixture.events(registrations: 600)))
        session.exportDirectory = directory
        func typed(_ text: String) -> [Key] { text.map { Key.character($0) } }
        var keys: [Key] = [.char("/")] + typed("bulk")
        keys += [.enter, .control("s"), .char(":")] + typed("export csv")
        keys += [.enter, .control("s"), .char(":")] + typed("export json")
        keys.append(.enter)
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 16), keys: keys)
        _ = session.run(on: terminal, maxFrames: keys.count + 1)
        let text = try read(directory + "/notifytop-names-1.txt")
        #expect(text.split(separator: "\n").count == 501)
        #expect(text.hasPrefix("NAME "))
        let csv = try read(directory + "/notifytop-names-1.csv")
        #expect(csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 501)
        #expect(FileManager.default.fileExists(atPath: directory + "/notifytop-names-2.csv"))
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: directory + "/notifytop-names-1.json")))
        let document = try #require(json as? [String: Any])
        #expect((document["rows"] as? [[String: String]])?.count == 500)
        #expect((document["columns"] as? [String])?.first == "NAME")
        #expect(
            (document["rows"] as? [[String: String]])?.allSatisfy { $0["NAME"]?.hasPrefix("bulk.name.") == true }
                == true)
        #expect(session.status.message == "saved 500 rows to \(directory)/notifytop-names-1.json")
    }

    @Test("a marked log saves as text with the mark line and as JSON with a marks list; row counts stay rows")
    func markedLog() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = DashboardSession(source: .fixed(Fixture.events()))
        session.exportDirectory = directory
        var keys: [Key] = [.char("5"), .char("m"), .control("s"), .char(":")] + "export json".map { Key.character($0) }
        keys.append(.enter)
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 30), keys: keys)
        _ = session.run(on: terminal, maxFrames: keys.count + 1)
        let rows = session.data.tail.events.count
        let text = try read(directory + "/notifytop-events-1.txt").split(separator: "\n")
        #expect(text.count == rows + 2)
        #expect(text.last?.hasPrefix("── mark 1 · ") == true)
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: directory + "/notifytop-events-1.json")))
        let document = try #require(json as? [String: Any])
        #expect((document["rows"] as? [[String: String]])?.count == rows)
        let marks = try #require(document["marks"] as? [[String: Any]])
        #expect(marks.count == 1)
        #expect(marks.first?["beforeRow"] as? Int == rows)
        #expect(session.status.message == "saved \(rows) rows to \(directory)/notifytop-events-1.json")
    }

    @Test("the screen dump writes the frame as text and as ANSI colour")
    func screenDump() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = DashboardSession(source: .fixed(Fixture.events()))
        session.exportDirectory = directory
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 24), keys: [.control("p")])
        _ = session.run(on: terminal, maxFrames: 2)
        let text = try read(directory + "/notifytop-screen-1.txt")
        #expect(text.contains("cartDidChange") && text.contains("F1Help"))
        let ansi = try read(directory + "/notifytop-screen-1.ans")
        #expect(ansi.contains("\u{1B}[0;1;38;5;231;48;5;24m notifytop"))
        #expect(ansi.split(separator: "\n").count == 24)
        #expect(session.status.message?.contains("notifytop-screen-1.txt and") == true)
    }

    @Test("a save that cannot be written gives a one-line reason")
    func saveError() {
        let session = DashboardSession(source: .fixed(Fixture.events()))
        session.exportDirectory = "/nonexistent/notifytop"
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 24), keys: [.control("s")])
        _ = session.run(on: terminal, maxFrames: 2)
        #expect(session.status.message?.hasPrefix("cannot save the view: ") == true)
        #expect(session.status.message?.contains("\n") == false)
        #expect(terminal.lastFrame?.lines[4].contains("cannot save the view") == true)
    }
}
