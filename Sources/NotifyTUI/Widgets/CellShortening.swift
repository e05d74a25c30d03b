/// How a cell too wide for its column is shortened: free text loses its end, identifiers keep the
/// part a user needs (a callsite its file and line, an object its type and its address's tail).
package enum CellShortening: Sendable, Hashable {
    /// Cut at the end with an ellipsis.
    case end
    /// A path: leading directories go first (`…/CartScreen.swift:42`), then the start of the file.
    case path
    /// `Type@0xADDRESS`: the address keeps its last digits (`CartCell@…7a1230`), then the type is cut.
    case object
    /// Words: whole trailing words go first (`cancelled 12s ago` → `cancelled 12s` → `cancelled`),
    /// then the last one left is cut at the end.
    case words

    /// Minimum address digits kept: enough to tell instances of one type apart on one screen.
    static let addressTail = 6

    /// `text` in at most `width` cells, shortened this way.
    package func apply(_ text: String, width: Int, ellipsis: String) -> String {
        guard width > 0, DisplayWidth.of(text) > width else { return text }
        switch self {
        case .end: return DisplayWidth.truncate(text, to: width, ellipsis: ellipsis)
        case .path: return Self.shortenPath(text, width: width, ellipsis: ellipsis)
        case .object: return Self.shortenObject(text, width: width, ellipsis: ellipsis)
        case .words: return Self.dropWords(text, width: width, ellipsis: ellipsis)
        }
    }

    /// Drops whole words from the end while the rest does not fit, then cuts the first word.
    static func dropWords(_ text: String, width: Int, ellipsis: String) -> String {
        var rest = Substring(text)
        while let space = rest.lastIndex(of: " ") {
            rest = rest[..<space]
            if DisplayWidth.of(rest) <= width { return String(rest) }
        }
        return DisplayWidth.truncate(String(rest), to: width, ellipsis: ellipsis)
    }

    /// Drops whole leading components while the rest does not fit, then characters from the left.
    static func shortenPath(_ text: String, width: Int, ellipsis: String) -> String {
        var rest = Substring(text)
        while let slash = rest.firstIndex(of: "/") {
            rest = rest[rest.index(after: slash)...]
            let candidate = ellipsis + "/" + rest
            if DisplayWidth.of(candidate) <= width { return candidate }
        }
        // The file and line alone, when they fit without the ellipsis.
        if DisplayWidth.of(rest) <= width { return String(rest) }
        return cutLeft(String(rest), width: width, ellipsis: ellipsis)
    }

    /// Shortens the address to its tail first, then the type from its end; text that is no
    /// object reference is cut at the end.
    static func shortenObject(_ text: String, width: Int, ellipsis: String) -> String {
        guard let at = text.lastIndex(of: "@"), text[at...].hasPrefix("@0x") else {
            return DisplayWidth.truncate(text, to: width, ellipsis: ellipsis)
        }
        let head = String(text[..<at])
        let digits = text[text.index(at, offsetBy: 3)...]
        let tail = digits.count > addressTail ? ellipsis + digits.suffix(addressTail) : "0x" + digits
        let address = "@" + tail
        let room = width - DisplayWidth.of(address)
        if DisplayWidth.of(head) <= room {
            // The whole type, and as many of the address's last digits as fit (at least the tail).
            let spare = width - DisplayWidth.of(head) - 1 - DisplayWidth.of(ellipsis)
            return head + "@" + ellipsis + digits.suffix(spare)
        }
        guard room >= 2 else { return DisplayWidth.truncate(text, to: width, ellipsis: ellipsis) }
        return DisplayWidth.truncate(head, to: room, ellipsis: ellipsis) + address
    }

    /// The end of `text` in `width` cells, behind an ellipsis.
    static func cutLeft(_ text: String, width: Int, ellipsis: String) -> String {
        let budget = width - DisplayWidth.of(ellipsis)
        guard budget > 0 else { return DisplayWidth.truncate(text, to: width, ellipsis: ellipsis) }
        var kept: [Character] = []
        var used = 0
        for character in text.reversed() {
            let cells = DisplayWidth.of(character)
            if used + cells > budget { break }
            kept.append(character)
            used += cells
        }
        return ellipsis + String(kept.reversed())
    }
}
