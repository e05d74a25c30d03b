import CDisplayWidth

/// How many terminal cells text occupies, counted as ncursesw and the terminal count them: each
/// scalar takes the C library's `wcwidth` in a UTF-8 locale (0 attaches it to the cell before),
/// so a combining mark takes none and a ZWJ emoji sequence is shown as its emoji side by side
/// (the joiner is dropped: terminals disagree on how wide the joined glyph is).
///
/// Column alignment must be computed in cells, not characters or bytes (htop#421, btop#1577).
/// Widths come from `wcwidth` under C.UTF-8 whatever the process's own locale (tests and batch
/// mode never call `setlocale`); the range tables below stand in only where that locale is
/// missing. What cannot be shown safely is shown as `?`: controls, noncharacters, unassigned
/// scalars, and the invisible format characters that reorder or hide text (bidi embeddings,
/// overrides and isolates, U+061C, zero-width spaces, word joiners, U+FEFF).
package enum DisplayWidth {
    /// One cell's worth of a grapheme cluster: a spacing scalar with the zero-width ones after it.
    package struct Piece: Sendable, Equatable {
        /// What the cell shows.
        package var glyph: Character
        /// 1 or 2.
        package var cells: Int
    }

    /// The glyph shown for a scalar that must not reach the terminal as it is.
    package static let placeholder: Character = "?"

    /// How the terminal lays out one grapheme cluster, one piece per spacing scalar; a scalar that
    /// cannot be shown is a `?` piece of its own, and zero-width scalars before any spacing one
    /// are dropped (the terminal would draw them over the previous cell).
    package static func pieces(of character: Character) -> [Piece] {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first, only.value < 0x7F {
            return [Piece(glyph: only.value < 0x20 ? placeholder : character, cells: 1)]
        }
        var pieces: [Piece] = []
        var current = String.UnicodeScalarView()
        var currentCells = 0
        func close() {
            guard currentCells > 0 else { return }
            let text = String(current)
            pieces.append(Piece(glyph: text.count == 1 ? Character(text) : placeholder, cells: currentCells))
            current = String.UnicodeScalarView()
            currentCells = 0
        }
        for scalar in scalars where scalar.value != zeroWidthJoiner {
            switch cells(of: scalar) {
            case nil:
                close()
                pieces.append(Piece(glyph: placeholder, cells: 1))
            case 0:
                if currentCells > 0 { current.append(scalar) }
            case let width?:
                close()
                current.append(scalar)
                currentCells = width
            }
        }
        close()
        return pieces
    }

    /// Cells of one grapheme cluster: the sum of its pieces' (see ``pieces(of:)``).
    package static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first {
            if only.value < 0x7F { return 1 }
            return cells(of: only) ?? 1
        }
        return pieces(of: character).reduce(0) { $0 + $1.cells }
    }

    /// Cells of a string: the sum over its grapheme clusters.
    package static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text {
            total += of(character)
        }
        return total
    }

    /// `text` with every scalar the terminal must not receive as it is replaced by `?` (see the
    /// type's summary): what exports write, so a name cannot move a cursor or split a row there.
    package static func visible(_ text: some StringProtocol) -> String {
        var result = ""
        for character in text {
            let pieces = pieces(of: character)
            if pieces.count == 1, pieces[0].glyph == character {
                result.append(character)
            } else {
                for piece in pieces { result.append(piece.glyph) }
            }
        }
        return result
    }

    /// Cells of one scalar as the terminal counts them: 0 (drawn on the previous cell), 1 or 2;
    /// nil when it is not printable or must be shown visibly (then it takes one `?` cell).
    package static func cells(of scalar: Unicode.Scalar) -> Int? {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return nil }
        if value < 0x300 { return 1 }
        if contains(hidden, value) { return nil }
        let width = notifytop_wcwidth(value)
        if width >= 0 { return Int(width) }
        if width == -1 { return nil }
        return of(scalar)
    }

    /// Cells of one scalar from the range tables below (used where C.UTF-8 is missing).
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value < 0x300 { return 1 }
        if contains(zeroWidth, value) { return 0 }
        if contains(wide, value) { return 2 }
        return 1
    }

    /// Dropped: a terminal may draw a ZWJ sequence as one emoji (tmux does) where ncursesw counts
    /// each emoji's cells, so the sequence is shown as its emoji side by side.
    private static let zeroWidthJoiner: UInt32 = 0x200D

    /// Invisible format characters that reorder, join or hide text: shown as `?`, never passed on.
    private static let hidden: [ClosedRange<UInt32>] = [
        0x061C...0x061C, 0x180E...0x180E, 0x200B...0x200B, 0x200E...0x200F, 0x202A...0x202E,
        0x2060...0x2064, 0x2066...0x206F, 0xFEFF...0xFEFF, 0xFFF9...0xFFFB,
    ]

    /// Cuts `text` to at most `width` cells, ending in `ellipsis` when something was cut.
    ///
    /// A wide character that would straddle the limit is dropped rather than split, so the result
    /// may be one cell narrower than `width`.
    package static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let ellipsisWidth = of(ellipsis)
        let budget = max(0, width - ellipsisWidth)
        var result = ""
        var used = 0
        for character in text {
            let cells = of(character)
            if used + cells > budget { break }
            result.append(character)
            used += cells
        }
        return ellipsisWidth <= width ? result + ellipsis : result
    }

    /// `text` cut or right-padded with spaces to exactly `width` cells.
    package static func fit(_ text: String, to width: Int, alignRight: Bool = false, ellipsis: String = "…") -> String {
        let cut = truncate(text, to: width, ellipsis: ellipsis)
        let pad = String(repeating: " ", count: max(0, width - of(cut)))
        return alignRight ? pad + cut : cut + pad
    }

    /// Breaks text into lines of at most `width` cells at spaces (a word longer than a line is cut),
    /// so long summaries stay readable instead of ending in an ellipsis.
    package static func wrap(_ text: String, to width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if of(candidate) <= width {
                line = candidate
            } else {
                if !line.isEmpty { lines.append(line) }
                line = of(word) <= width ? String(word) : truncate(String(word), to: width)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    private static func contains(_ table: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var low = 0
        var high = table.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = table[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Combining marks, format characters and variation selectors: drawn on the previous cell.
    private static let zeroWidth: [ClosedRange<UInt32>] = [
        0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x05BF...0x05BF, 0x05C1...0x05C2,
        0x05C4...0x05C5, 0x05C7...0x05C7, 0x0610...0x061A, 0x064B...0x065F, 0x0670...0x0670,
        0x06D6...0x06DC, 0x06DF...0x06E4, 0x06E7...0x06E8, 0x06EA...0x06ED, 0x0900...0x0902,
        0x093A...0x093A, 0x093C...0x093C, 0x0941...0x0948, 0x094D...0x094D, 0x0951...0x0957,
        0x0E31...0x0E31, 0x0E34...0x0E3A, 0x0E47...0x0E4E, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF,
        0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x20D0...0x20FF, 0x302A...0x302D,
        0x3099...0x309A, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xFEFF...0xFEFF, 0x1F3FB...0x1F3FF,
        0xE0001...0xE0001, 0xE0020...0xE007F, 0xE0100...0xE01EF,
    ]

    /// East Asian Wide and Fullwidth characters, and emoji shown with emoji presentation.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x3029, 0x302E...0x303E, 0x3041...0x3098, 0x309B...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
        0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F260...0x1F265,
        0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393,
        0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4,
        0x1F3F8...0x1F3FA, 0x1F400...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC,
        0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5,
        0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF,
        0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0,
        0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
