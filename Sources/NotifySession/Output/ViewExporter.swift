import Foundation
import NotifySystem
import NotifyTUI
import NotifyWire

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
        case .json, .perfetto: text = try Self.json(content)
        }
        let path = nextPath(stem: "notifytop-" + content.view, extensions: [format.fileExtension])[0]
        try write(text, to: path)
        return path
    }

    /// Saves `events` as a Perfetto timeline (``PerfettoExport``); returns the file name and what it holds.
    mutating func timeline(_ events: some Sequence<TraceEvent>) throws(PerfettoExport.Failure) -> (
        path: String, counts: PerfettoTraceWriter.Counts
    ) {
        let path = nextPath(stem: "notifytop-timeline", extensions: ["json"])[0]
        return (path, try PerfettoExport.export(events: events, to: path))
    }

    /// Saves the recording at `recording` as a Perfetto timeline; returns the file name and what it holds.
    mutating func timeline(recording: String) throws(PerfettoExport.Failure) -> (
        path: String, counts: PerfettoTraceWriter.Counts
    ) {
        let path = nextPath(stem: "notifytop-timeline", extensions: ["json"])[0]
        return (path, try PerfettoExport.export(recording: recording, to: path).counts)
    }

    /// Saves a frame as plain text and as ANSI; returns both file names.
    mutating func dump(_ canvas: Canvas, depth: ColorDepth, theme: Theme) throws -> [String] {
        let paths = nextPath(stem: "notifytop-screen", extensions: ["txt", "ans"])
        try write(canvas.plainText + "\n", to: paths[0])
        do {
            try write(AnsiDump.render(canvas, depth: depth, theme: theme), to: paths[1])
        } catch {
            unlink(paths[0])
            throw error
        }
        return paths
    }

    static func json(_ content: TableContent) throws -> String {
        let rows = content.rows.map { cells in
            Dictionary(zip(content.columns, cells).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
        }
        let marks = content.notes.map { Mark(beforeRow: $0.beforeRow, text: $0.text) }
        return try PrettyJSON.text(
            Document(view: content.view, columns: content.columns, rows: rows, marks: marks.isEmpty ? nil : marks))
    }

    /// The first `<stem>-<n>` (n counting up per stem and extension) for which no file exists yet.
    private mutating func nextPath(stem: String, extensions: [String]) -> [String] {
        let counter = stem + "." + extensions.joined(separator: ".")
        var number = counters[counter, default: 0]
        var paths: [String]
        repeat {
            number += 1
            paths = extensions.map { (directory.isEmpty ? "" : directory + "/") + "\(stem)-\(number).\($0)" }
        } while paths.contains(where: NewFile.isTaken)
        counters[counter] = number
        return paths
    }

    private func write(_ text: String, to path: String) throws {
        try Self.writeNew(Array(text.utf8), to: path)
    }

    /// Writes `bytes` to a new file at `path`, whole or not at all (``NewFile``). `limit` stands in
    /// for a disk that is full after that many bytes.
    static func writeNew(_ bytes: [UInt8], to path: String, limit: Int? = nil) throws(TraceError) {
        do throws(NewFile.Failure) {
            let file = try NewFile(creating: path, limit: limit)
            file.write(bytes)
            try file.publish()
        } catch {
            throw error.traceError
        }
    }
}
