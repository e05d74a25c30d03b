/// A one-line prompt typed in the breadcrumb line: the filter (`/`), the search (F3), the
/// command palette (`:`) or a replay's go-to-time (`g`). One prompt at a time, so every key goes to exactly one place.
package struct Prompt: Sendable, Hashable {
    /// What the prompt edits.
    package enum Kind: Sendable, Hashable {
        /// The table's filter, applied as it is typed.
        case filter
        /// The table's search, highlighted as it is typed; Enter jumps to the first match.
        case search
        /// A palette command, run on Enter.
        case command
        /// A replay position (`1.5s`, `250ms`, `2m`), gone to on Enter.
        case time
    }

    /// What the prompt edits.
    package var kind: Kind
    /// The text typed so far.
    package var text: String
    /// Why the text cannot be used, shown after it; nil when it can.
    package var error: String?
    /// Palette: the candidates the last Tab found, shown after the text.
    package var candidates: [String] = []
    /// The filter or search in effect when the prompt opened: what stays in effect when Enter
    /// finds the new text malformed.
    package var original: String

    /// Opens a prompt with `text` already typed.
    package init(kind: Kind, text: String = "") {
        self.kind = kind
        self.text = text
        self.original = text
    }

    /// Opens a filter or search prompt empty, like k9s's `/`: typing replaces `previous`, which
    /// stays in effect until the new text parses, and ↑ on the empty prompt recalls it to edit.
    package init(kind: Kind, replacing previous: String) {
        self.init(kind: kind)
        original = previous
    }

    /// What precedes the text on screen.
    package var label: String {
        switch kind {
        case .filter: "Filter: "
        case .search: "Search: "
        case .command: ":"
        case .time: "Go to time (1.5s, 250ms, 2m): "
        }
    }
}

/// A one-line message a key leaves for the next frame.
package struct Notice: Sendable, Hashable {
    /// The text.
    package var text: String
    /// Shown as an error rather than information.
    package var isError: Bool

    /// Creates a notice.
    package init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}

extension ViewState {
    /// Whether the filter prompt is open (setting it opens one on the current filter, or closes it).
    package var editingFilter: Bool {
        get { prompt?.kind == .filter }
        set { prompt = newValue ? Prompt(kind: .filter, replacing: table.filter) : nil }
    }
}
