import Foundation
import NotifyTUI
import Testing

/// Compares a frame with `Snapshots/<name>.txt` beside this file: the text, then the style layer.
///
/// A missing snapshot (or RECORD_SNAPSHOTS=1) writes the file and fails the test, so a recorded
/// baseline never passes silently.
func assertSnapshot(_ canvas: Canvas, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let file = directory.appendingPathComponent(name + ".txt")
    let rule = String(repeating: "-", count: canvas.size.width)
    let text = (canvas.lines + [rule] + canvas.styleLines).joined(separator: "\n") + "\n"
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? text.write(to: file, atomically: true, encoding: .utf8)
        Issue.record("recorded snapshot \(name); run again to compare", sourceLocation: sourceLocation)
        return
    }
    if expected != text {
        let got = text.split(separator: "\n", omittingEmptySubsequences: false)
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let firstDifference = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }
        let line =
            firstDifference.map { "line \($0.offset + 1):\n  got  \($0.element.0)\n  want \($0.element.1)" }
            ?? "lengths differ"
        Issue.record("snapshot \(name) differs at \(line)", sourceLocation: sourceLocation)
    }
}
