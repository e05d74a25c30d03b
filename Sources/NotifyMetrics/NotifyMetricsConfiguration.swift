/// What a ``NotifyMetricsProbe`` names its metrics and how many notification names get a label
/// of their own.
public struct NotifyMetricsConfiguration: Sendable {
    /// Put before every metric's label: `notify_posts`, `notify_deliveries` and so on.
    public var labelPrefix: String
    /// Notification names (and typed message types) that get their own `name` dimension; the
    /// first ones seen take them, and every later name folds into ``otherName``. Bounds what a
    /// backend stores, whatever names an app makes up at run time.
    public var maxNames: Int
    /// The `name` of every name beyond ``maxNames``.
    public var otherName: String
    /// The `name` of registrations that observe every name (`name: nil`).
    public var anyName: String
    /// Added to every metric, such as `[("center", "shop")]` to tell centers or instances apart.
    public var dimensions: [(String, String)]
    /// How the labels end.
    public var naming: Naming

    /// How the labels end: as they are, or with the suffixes Prometheus and OpenMetrics expect.
    public enum Naming: Sendable {
        /// `notify_posts`, `notify_handler_duration`.
        case plain
        /// Counters end in `_total` and the handler timer in `_seconds`: `notify_posts_total`,
        /// `notify_handler_duration_seconds`.
        case prometheus
    }

    /// - Parameters:
    ///   - labelPrefix: Put before every metric's label.
    ///   - maxNames: Notification names that get their own `name` dimension.
    ///   - otherName: The `name` of every name beyond `maxNames`.
    ///   - anyName: The `name` of registrations that observe every name.
    ///   - dimensions: Added to every metric.
    ///   - naming: How the labels end; ``prometheus(labelPrefix:maxNames:dimensions:)`` sets
    ///     ``Naming/prometheus``.
    public init(
        labelPrefix: String = "notify_", maxNames: Int = 100, otherName: String = "other", anyName: String = "*",
        dimensions: [(String, String)] = [], naming: Naming = .plain
    ) {
        precondition(maxNames >= 0, "maxNames must not be negative")
        self.labelPrefix = labelPrefix
        self.maxNames = maxNames
        self.otherName = otherName
        self.anyName = anyName
        self.dimensions = dimensions
        self.naming = naming
    }

    /// The configuration for a Prometheus backend: labels with its suffixes. Give the handler
    /// timer ``handlerDurationBuckets`` too (a backend's default buckets start at milliseconds,
    /// where a handler takes nanoseconds to microseconds):
    ///
    /// ```swift
    /// let configuration = NotifyMetricsConfiguration.prometheus()
    /// let factory = PrometheusMetricsFactory(registry: registry)
    /// factory.durationHistogramBuckets[configuration.handlerDurationLabel] =
    ///     NotifyMetricsConfiguration.handlerDurationBuckets
    /// ```
    public static func prometheus(
        labelPrefix: String = "notify_", maxNames: Int = 100, dimensions: [(String, String)] = []
    ) -> NotifyMetricsConfiguration {
        NotifyMetricsConfiguration(
            labelPrefix: labelPrefix, maxNames: maxNames, dimensions: dimensions, naming: .prometheus)
    }

    /// Histogram buckets for handler durations, 1 µs to 1 s in steps of 1, 2.5 and 5.
    public static let handlerDurationBuckets: [Duration] =
        (0..<6).flatMap { power -> [Duration] in
            let unit = (0..<power).reduce(1) { value, _ in value * 10 }
            return [.nanoseconds(1_000 * unit), .nanoseconds(2_500 * unit), .nanoseconds(5_000 * unit)]
        } + [.seconds(1)]

    /// The counter labels, then the timer's and the gauge's.
    var postsLabel: String { counter("posts") }
    var deliveriesLabel: String { counter("deliveries") }
    var removalsLabel: String { counter("removals") }
    var droppedTokensLabel: String { counter("dropped_tokens") }
    /// The handler timer's label: the key for a backend's buckets.
    public var handlerDurationLabel: String {
        labelPrefix + "handler_duration" + (naming == .prometheus ? "_seconds" : "")
    }
    var registrationsLabel: String { labelPrefix + "registrations" }

    private func counter(_ base: String) -> String {
        labelPrefix + base + (naming == .prometheus ? "_total" : "")
    }
}
