/// Renders rows as the report table, as aligned plain text or as Markdown.
struct ReportTable {
    static let headers = ["benchmark", "NotifyKit", "Foundation", "floor", "ratio vs Foundation", "target", "pass/fail"]
    /// Text columns are left-aligned, measurements right-aligned.
    static let rightAligned = [false, true, true, true, true, false, false]

    let rows: [Row]

    var cells: [[String]] {
        rows.map { row in
            [
                row.benchmark, row.notifyKit.text, row.foundation.text, row.floor.text,
                row.ratioToFoundation.map { Cell.factor($0).text } ?? "–",
                row.target,
                row.passed.map { $0 ? "pass" : "FAIL" } ?? "–",
            ]
        }
    }

    func plainText() -> String {
        let body = cells
        let widths = Self.headers.indices.map { column in
            ([Self.headers[column]] + body.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ values: [String]) -> String {
            values.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - values[column].count)
                return Self.rightAligned[column] ? padding + values[column] : values[column] + padding
            }.joined(separator: " | ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")
        return ([line(Self.headers), rule] + body.map(line)).joined(separator: "\n")
    }

    func markdown() -> String {
        func line(_ values: [String]) -> String {
            "| " + values.map { $0.replacingPipes() }.joined(separator: " | ") + " |"
        }
        let alignment = "|" + Self.rightAligned.map { $0 ? " ---: |" : " --- |" }.joined()
        return ([line(Self.headers), alignment] + cells.map(line)).joined(separator: "\n")
    }

    /// "N of M targets met", and which failed.
    var summary: String {
        let judged = rows.filter { $0.passed != nil }
        let failed = judged.filter { $0.passed == false }
        var text = "\(judged.count - failed.count) of \(judged.count) targets met"
        if !failed.isEmpty {
            text += "; failing: " + failed.map(\.benchmark).joined(separator: "; ")
        }
        return text
    }
}

extension String {
    fileprivate func replacingPipes() -> String {
        split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
