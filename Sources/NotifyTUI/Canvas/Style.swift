/// A semantic role for a cell, never a colour.
///
/// Views say *what* a cell is (a column header, a selected row, an error); each backend decides
/// once how that looks at its colour depth (256, 16, 8 or mono), in the manner of htop's
/// `ColorElements`. Tests can assert on roles without caring about palettes.
package enum Style: UInt8, Sendable, Hashable, CaseIterable {
    /// Ordinary text.
    case normal
    /// Secondary text: units, ages, ids.
    case dim
    /// The top title bar.
    case title
    /// A label in the header ("posts/s").
    case label
    /// A figure in the header.
    case value
    /// The LIVE mode badge.
    case badgeLive
    /// The PAUSED mode badge.
    case badgePaused
    /// The REPLAY mode badge.
    case badgeReplay
    /// The ENDED mode badge.
    case badgeEnded
    /// The [REC] indicator.
    case recording
    /// A table's column header row.
    case columnHeader
    /// The column the table is sorted by.
    case columnSorted
    /// The selected table row.
    case selected
    /// An error-severity finding.
    case error
    /// A warning-severity finding.
    case warning
    /// An info-severity finding.
    case info
    /// "All is well" text (no warnings).
    case ok
    /// Sparkline glyphs.
    case sparkline
    /// The key in the footer bar ("F1").
    case footerKey
    /// The label in the footer bar ("Help").
    case footerLabel
    /// The active filter and the filter prompt.
    case filter
    /// The drill-down breadcrumb.
    case breadcrumb
    /// The active view's tab.
    case tabActive
    /// An inactive view's tab.
    case tabInactive
    /// The help overlay's frame and body.
    case overlay
    /// A row matching the search.
    case match

    /// One letter per role, for the attribute layer that tests print beside the text.
    package var code: Character {
        switch self {
        case .normal: " "
        case .dim: "d"
        case .title: "T"
        case .label: "l"
        case .value: "v"
        case .badgeLive: "L"
        case .badgePaused: "P"
        case .badgeReplay: "R"
        case .badgeEnded: "E"
        case .recording: "r"
        case .columnHeader: "h"
        case .columnSorted: "H"
        case .selected: "S"
        case .error: "!"
        case .warning: "w"
        case .info: "i"
        case .ok: "o"
        case .sparkline: "~"
        case .footerKey: "K"
        case .footerLabel: "k"
        case .filter: "f"
        case .breadcrumb: "b"
        case .tabActive: "A"
        case .tabInactive: "a"
        case .overlay: "O"
        case .match: "m"
        }
    }
}
