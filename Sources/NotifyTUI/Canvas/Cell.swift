/// One terminal cell: a grapheme cluster, how many cells it spans, and its role.
///
/// A wide character occupies two cells: the first holds it with `width == 2`, the second is a
/// continuation with `width == 0` that backends skip. Keeping both makes the grid's columns equal
/// the terminal's columns, so diffing and tests index by screen position.
package struct Cell: Sendable, Hashable {
    /// What is drawn; a space for blank cells and continuations.
    package var character: Character
    /// 1 for a normal cell, 2 for the left half of a wide character, 0 for its right half.
    package var width: UInt8
    /// The semantic role the backend turns into colours and attributes.
    package var style: Style

    /// Creates a cell.
    package init(_ character: Character, width: UInt8 = 1, style: Style = .normal) {
        self.character = character
        self.width = width
        self.style = style
    }

    /// A blank cell of the given role.
    package static func blank(_ style: Style = .normal) -> Cell { Cell(" ", width: 1, style: style) }

    /// Whether this is the right half of a wide character.
    package var isContinuation: Bool { width == 0 }
}
