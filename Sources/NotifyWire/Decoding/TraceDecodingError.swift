/// Why a line of a trace could not be decoded, and where: a one-line ``description`` names the
/// line number and the column or field.
///
/// Every error but ``Reason/unsupportedVersion(_:)`` and ``Reason/notATrace(format:)`` concerns
/// one line only: the decoder has already moved past it, so a reader that wants to be lenient
/// counts the error and calls ``TraceDecoder/next()`` again. Those two concern the whole stream:
/// the reader should stop, because the lines that follow are in a format it does not know.
public struct TraceDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number in the stream.
    public var line: Int
    /// What was wrong.
    public var reason: Reason

    /// Creates an error.
    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    /// What was wrong with a line.
    public enum Reason: Sendable, Hashable {
        /// The line is not one valid JSON object; `column` is the 1-based byte where it went wrong.
        case malformed(column: Int, problem: String)
        /// The object has no `k` string, so it is not a trace line.
        case missingKind
        /// A field the line's kind requires is absent.
        case missingField(kind: String, field: String)
        /// A field has the wrong JSON type, such as a string where an integer belongs.
        case wrongType(kind: String, field: String, expected: String)
        /// A field has the right type but a value outside its range or enumeration.
        case invalidValue(kind: String, field: String, value: String)
        /// The line is longer than the decoder's limit; it was skipped without being buffered.
        case lineTooLong(limit: Int)
        /// The input ended in the middle of a line (a recording cut off mid-write).
        case truncated(bytes: Int)
        /// A header whose `format` is not `notifytop-trace`: this is some other JSON Lines file.
        case notATrace(format: String)
        /// A header with a major version this decoder cannot read.
        case unsupportedVersion(String)
    }

    /// True when the error concerns the whole stream and reading should stop.
    public var isFatal: Bool {
        switch reason {
        case .notATrace, .unsupportedVersion: true
        default: false
        }
    }

    /// One line naming the line number and what was wrong, for logs and replay summaries.
    public var description: String {
        "line \(line): " + problem
    }

    private var problem: String {
        switch reason {
        case .malformed(let column, let problem):
            "column \(column): \(problem)"
        case .missingKind:
            "not a trace line: no \"k\" string field"
        case .missingField(let kind, let field):
            "\(kind) line: missing field \"\(field)\""
        case .wrongType(let kind, let field, let expected):
            "\(kind) line: field \"\(field)\" should be \(expected)"
        case .invalidValue(let kind, let field, let value):
            "\(kind) line: field \"\(field)\" has invalid value \(value)"
        case .lineTooLong(let limit):
            "line longer than the \(limit)-byte limit; skipped to the next newline"
        case .truncated(let bytes):
            "input ends mid-line (\(bytes) bytes after the last newline); the last line is incomplete"
        case .notATrace(let format):
            "header format is \"\(format)\", not \"\(TraceHeader.formatName)\""
        case .unsupportedVersion(let version):
            "trace format version \(version) is not supported: this reader understands "
                + "\(TraceFormatVersion.current.major).x (newest \(TraceFormatVersion.current))"
        }
    }
}
