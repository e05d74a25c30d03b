/// Text a watched process chose (a path, bpftrace's complaint about it) made safe for one line of
/// a terminal or an error: bounded, control characters, backslashes and non-ASCII bytes as `\xNN`.
package enum VisibleText {
    package static func line(_ text: String, limit: Int = 200) -> String {
        var result = ""
        for byte in text.utf8.prefix(limit) {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return text.utf8.count > limit ? result + "…" : result
    }
}
