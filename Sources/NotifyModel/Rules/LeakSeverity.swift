/// How sure and how bad a finding is.
///
/// Why three levels: the taxonomy's error (definite leak or misdelivery), warning (very likely a
/// bug) and info (suspicious, may be intentional) drive the header counts and the errors-only mode.
public enum LeakSeverity: Int, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Suspicious; may be intentional.
    case info
    /// Very likely a bug.
    case warning
    /// A definite leak or misdelivery.
    case error

    /// `"info"`, `"warning"` or `"error"`.
    public var description: String {
        switch self {
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    /// Orders info < warning < error.
    public static func < (lhs: LeakSeverity, rhs: LeakSeverity) -> Bool { lhs.rawValue < rhs.rawValue }
}
