public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a trace operation failed, as a one-line message a person can act on.
public enum TraceError: Error, Equatable, CustomStringConvertible {
    /// A system call failed.
    case system(String, Int32)
    /// Something is not as the trace format or the socket protocol requires.
    case invalid(String)

    public var description: String {
        switch self {
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
        case .invalid(let what): what
        }
    }
}

extension TraceError: LocalizedError {
    /// The one-line message, for code that reports errors through Foundation.
    public var errorDescription: String? { description }
}
