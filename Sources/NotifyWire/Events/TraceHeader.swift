/// The first line of every trace: which format it is, who produced it, and how its monotonic
/// timestamps relate to wall-clock time.
///
/// A reader uses ``version`` to decide whether it can read the stream at all (see
/// ``TraceFormatVersion``), and the clock base to turn any event's monotonic `t` into a date:
/// `wall = clockWall + (t - clockMono)`.
public struct TraceHeader: Sendable, Hashable {
    /// The format version the producer wrote.
    public var version: TraceFormatVersion
    /// The producing process's id.
    public var pid: Int32
    /// The producing process's name, as `ps` shows it.
    public var process: String
    /// The label of the center whose events the stream carries; the first one's when it carries
    /// several (``centers``).
    public var center: String
    /// Monotonic nanoseconds (CLOCK_MONOTONIC) at the instant ``clockWall`` was read.
    public var clockMono: UInt64
    /// Wall-clock nanoseconds since the Unix epoch at the instant ``clockMono`` was read.
    public var clockWall: UInt64
    /// The producing library and its version, such as `"NotifyKit 0.1.0"`: for bug reports.
    public var producer: String
    /// Monotonic nanoseconds when the center began keeping the history a late viewer receives
    /// (``TraceHistory``): the start of what the stream's figures cover. Nil when the producer
    /// keeps none (before format 1.4): then the figures cover the stream alone.
    public var since: UInt64?
    /// The labels of the centers the stream carries, when more than one; nil for one center.
    public var centers: [String]?

    /// Creates a header; ``version`` defaults to the version this module writes.
    public init(
        version: TraceFormatVersion = .current, pid: Int32, process: String, center: String,
        clockMono: UInt64, clockWall: UInt64, producer: String, since: UInt64? = nil,
        centers: [String]? = nil
    ) {
        self.centers = centers
        self.since = since
        self.version = version
        self.pid = pid
        self.process = process
        self.center = center
        self.clockMono = clockMono
        self.clockWall = clockWall
        self.producer = producer
    }

    /// The `format` value of every header line: tells a trace apart from any other JSON Lines file.
    public static let formatName = "notifytop-trace"

    /// The most ``centers`` a header may list (format 1.5); a decoder refuses a header that lists
    /// more.
    public static let maximumCenters = 256
}

/// A trace format version, written `"major.minor"` in the header.
///
/// The minor number grows when a version only adds things (line kinds, fields, enum values), so
/// a reader accepts every minor of its own major. The major number grows when a change would make
/// an old reader misread a stream, so a reader refuses any other major.
public struct TraceFormatVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Incompatible revisions.
    public var major: Int
    /// Compatible additions within a major version.
    public var minor: Int

    /// Creates a version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// The version this module writes, and the newest it fully understands.
    public static let current = TraceFormatVersion(major: 1, minor: 5)

    /// Whether a reader of ``current`` can read a stream of this version: same major, any minor.
    public var isReadable: Bool { major == Self.current.major }

    /// `"1.0"`: the header's spelling.
    public var description: String { "\(major).\(minor)" }

    /// Parses the header's `"major.minor"` spelling; nil unless it is two unsigned integers.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            let major = Int(parts[0]), let minor = Int(parts[1])
        else { return nil }
        self.init(major: major, minor: minor)
    }

    /// Orders by major, then minor.
    public static func < (lhs: TraceFormatVersion, rhs: TraceFormatVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
