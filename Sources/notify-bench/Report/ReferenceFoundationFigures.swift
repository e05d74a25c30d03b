/// Foundation's figures measured on the reference machine when the targets were set, next to
/// which the targets were set. Foundation measured in the same run here is about 3× faster than these, so the report
/// gives NotifyKit's ratio against both.
enum ReferenceFoundationFigures {
    /// ns per post with 1, 10 and 100 observers.
    static let posts: [(observers: Int, nanoseconds: Double)] = [(1, 870), (10, 2_800), (100, 18_600)]
    /// The faster end of the reference 1.4–2.3 µs per add+remove pair: the stricter comparison.
    static let addRemove = 1_400.0

    /// One line with NotifyKit's ratio to each reference figure measured in this run; nil when the
    /// run measured none of them.
    static func comparison(_ rows: [Row]) -> String? {
        func measured(_ name: String) -> Double? {
            rows.first { $0.benchmark == name }?.notifyKit.measurement
        }
        let posts = Self.posts.compactMap { entry -> String? in
            measured(PostWorkload.rowName(observers: entry.observers)).map {
                "\(entry.observers): \(Cell.factor(entry.nanoseconds / $0).text)"
            }
        }
        let pairs = AddRemoveWorkload.Layout.allCases.compactMap { layout -> String? in
            measured(layout.rowName).map { Cell.factor(addRemove / $0).text }
        }
        guard !posts.isEmpty || !pairs.isEmpty else { return nil }
        var parts: [String] = []
        if !posts.isEmpty { parts.append("post with " + posts.joined(separator: ", ") + " observers (target ≥ 10×)") }
        if !pairs.isEmpty { parts.append("add+remove " + pairs.joined(separator: " / ") + " (target ≥ 5×)") }
        return "against the reference Foundation figures (870 ns, 2.8 µs, 18.6 µs per post; 1.4 µs per add+remove): "
            + parts.joined(separator: "; ")
    }
}
