import NotifyTUI

/// Text made safe to print to a terminal, as the screen shows it (`DisplayWidth.visible(_:)`):
/// control characters (C0, DEL and C1), which a crafted notification name or file name could use
/// to retitle or clear the terminal, and the invisible characters that reorder or hide text (bidi
/// embeddings, overrides and isolates, marks, zero-width spaces) become `?`. Every text notifytop
/// prints from a trace, a file name or another program goes through it.
package enum PrintableText {
    /// `text` with every scalar the terminal must not receive as it is replaced by `?`.
    package static func of(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return text }
        return DisplayWidth.visible(text)
    }

    /// Text that may hold line breaks: each line made printable, the breaks kept.
    package static func lines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { of(String($0)) }.joined(separator: "\n")
    }
}
