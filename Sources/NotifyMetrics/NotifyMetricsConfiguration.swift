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

    public init(
        labelPrefix: String = "notify_", maxNames: Int = 100, otherName: String = "other", anyName: String = "*",
        dimensions: [(String, String)] = []
    ) {
        precondition(maxNames >= 0, "maxNames must not be negative")
        self.labelPrefix = labelPrefix
        self.maxNames = maxNames
        self.otherName = otherName
        self.anyName = anyName
        self.dimensions = dimensions
    }
}
