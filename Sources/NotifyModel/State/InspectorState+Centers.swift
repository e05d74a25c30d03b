import NotifyWire

/// The centers one stream carries (format 1.5): their labels come with the header, or later with a
/// `center` line each, and each registration and post names its own by index.
///
/// A stream of one center (a header without `centers`, or with only one, and no `center` line) shows
/// no center anywhere: every registration and post is on center 0, whatever its line says.
extension InspectorState {
    /// The most centers a stream names; a later `center` line reads as an unnamed center.
    static let maximumCenterLabels = 1 << 16

    /// The labels of the centers the stream carries, by index, when it carries several; nil for one.
    public var centers: [String]? {
        carriesSeveralCenters ? centerLabels : nil
    }

    /// Whether `header` lists several centers.
    static func listsSeveralCenters(_ header: TraceHeader) -> Bool {
        (header.centers?.count ?? 0) > 1
    }

    /// The label of the center at `index`: `center N` when the stream does not name it.
    public func centerLabel(_ index: UInt32) -> String {
        guard Int(index) < centerLabels.count else { return "center \(index)" }
        return centerLabels[Int(index)]
    }

    /// The label of `row`'s center when the stream carries several; nil for one.
    public func centerLabel(of row: ObserverRow) -> String? {
        carriesSeveralCenters ? centerLabel(row.center) : nil
    }

    /// The center a line names, as the fold keeps it: 0 unless the stream carries several.
    func centerIndex(_ center: UInt32?) -> UInt32 {
        carriesSeveralCenters ? center ?? 0 : 0
    }

    /// A center made after the header: from here the stream carries several. Indices come in order;
    /// one out of order, or beyond the cap, stays unnamed.
    mutating func introduceCenter(_ center: TraceCenter) {
        if centerLabels.isEmpty { centerLabels = [header?.center ?? ""] }
        // From here the `*` row counts only what a wildcard could hear, from the start.
        if !carriesSeveralCenters { nameRows[0].posts = wildcardAudiblePosts }
        carriesSeveralCenters = true
        let index = Int(center.index)
        if index < centerLabels.count {
            centerLabels[index] = center.label
        } else if index == centerLabels.count, index < Self.maximumCenterLabels {
            centerLabels.append(center.label)
        }
    }
}
