/// Text made safe to print to a terminal: control characters (C0, DEL and C1), which a crafted
/// notification name or file name could use to retitle or clear the terminal, become `?`, as the
/// screen shows them.
package enum PrintableText {
    /// `text` with every control character replaced by `?`.
    package static func of(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(isControl(scalar) ? "?" : scalar)
        }
        return String(result)
    }

    /// Text that may hold line breaks: each line made printable, the breaks kept.
    package static func lines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { of(String($0)) }.joined(separator: "\n")
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
