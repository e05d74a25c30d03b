import Foundation
import NotifyCurses
import NotifyTUI

/// Writes what Ctrl-S and the screen dump save: files named `notifytop-<view>-<n>.<ext>` in a
/// directory (the working directory by default), never overwriting one that exists.
struct ViewExporter {
    /// Where files go; empty means the working directory.
    var directory = ""
    private var counters: [String: Int] = [:]

    /// The JSON document: the columns in screen order, and one object per row keyed by column.
    private struct Document: Encodable {
        var view: String
        var columns: [String]
        var rows: [[String: String]]
        /// A log's marks, by the row they precede; left out when there are none.
        var marks: [Mark]?
    }

    private struct Mark: Encodable {
        var beforeRow: Int
        var text: String
    }

    /// Saves a table; returns the file name written and how many rows it holds.
    mutating func export(_ content: TableContent, as format: ExportFormat) throws -> String {
        let text: String
        switch format {
        case .text: text = content.text
        case .csv: text = content.csv
        case .json: text = try Self.json(content)
        }
        let path = nextPath(stem: "notifytop-" + content.view, extensions: [format.fileExtension])[0]
        try write(text, to: path)
        return path
    }

    /// Saves a frame as plain text and as ANSI; returns both file names.
    mutating func dump(_ canvas: Canvas, depth: ColorDepth, theme: Theme) throws -> [String] {
        let paths = nextPath(stem: "notifytop-screen", extensions: ["txt", "ans"])
        try write(canvas.plainText + "\n", to: paths[0])
        try write(AnsiDump.render(canvas, depth: depth, theme: theme), to: paths[1])
        return paths
    }

    static func json(_ content: TableContent) throws -> String {
        let rows = content.rows.map { cells in
            Dictionary(zip(content.columns, cells).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let marks = content.notes.map { Mark(beforeRow: $0.beforeRow, text: $0.text) }
        let data = try encoder.encode(Document(view: content.view, columns: content.columns, rows: rows,
                                               marks: marks.isEmpty ? nil : marks))
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The first `<stem>-<n>` (n counting up per stem and extension) for which no file exists yet.
    private mutating func nextPath(stem: String, extensions: [String]) -> [String] {
        let counter = stem + "." + extensions.joined(separator: ".")
        var number = counters[counter, default: 0]
        var paths: [String]
        repeat {
            number += 1
            paths = extensions.map { (directory.isEmpty ? "" : directory + "/") + "\(stem)-\(number).\($0)" }
        } while paths.contains { FileManager.default.fileExists(atPath: $0) }
        counters[counter] = number
        return paths
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
    }
}
