import NotifySystem

/// Times typed by the user for replays: `1.5s`, `250ms`, `2m`, or plain seconds (`12`, `0.5`).
///
/// Why one parser: `--from`, `--to` and the `g` prompt take the same spellings
/// (`DurationText`), so what works on the command line works at the prompt.
package enum TimeOffset {
    /// Nanoseconds for `text`, spaces around it ignored; nil when it is not a time
    /// `DurationText` reads.
    package static func nanoseconds(_ text: String) -> UInt64? {
        DurationText.nanoseconds(text.trimmingSpaces())
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var result = Substring(self)
        while result.first == " " { result.removeFirst() }
        while result.last == " " { result.removeLast() }
        return String(result)
    }
}
