/// A colour scheme the backend maps ``Style`` roles with (htop's colour schemes, btop's themes).
/// Views never see it: they name roles, and the theme decides how roles look.
package enum Theme: String, Sendable, Hashable, CaseIterable {
    /// Light text on the terminal's own (usually dark) background.
    case standard = "default"
    /// Dark text on light backgrounds, for light terminals and projectors.
    case light
    /// Attributes only (bold, reverse, underline), as with NO_COLOR.
    case mono

    /// Parses `--theme` and `:theme`: a theme's name, any case.
    package init?(name: String) {
        self.init(rawValue: name.lowercased())
    }
}
