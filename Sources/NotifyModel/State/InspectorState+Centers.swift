import NotifyWire

/// The centers one stream carries (format 1.5): their labels come with the header, and each
/// registration and post names its own by index.
///
/// A stream of one center (a header without `centers`, or with only one) shows no center anywhere:
/// every registration and post is on center 0, whatever its line says.
extension InspectorState {
    /// The labels of the centers the stream carries, when it carries several; nil for one.
    public var centers: [String]? {
        carriesSeveralCenters ? header?.centers : nil
    }

    /// Whether `header` lists several centers.
    static func listsSeveralCenters(_ header: TraceHeader) -> Bool {
        (header.centers?.count ?? 0) > 1
    }

    /// The label of the center at `index`: `center N` when the header does not name it.
    public func centerLabel(_ index: UInt32) -> String {
        guard let labels = header?.centers, Int(index) < labels.count else { return "center \(index)" }
        return labels[Int(index)]
    }

    /// The label of `row`'s center when the stream carries several; nil for one.
    public func centerLabel(of row: ObserverRow) -> String? {
        carriesSeveralCenters ? centerLabel(row.center) : nil
    }

    /// The center a line names, as the fold keeps it: 0 unless the stream carries several.
    func centerIndex(_ center: UInt32?) -> UInt32 {
        carriesSeveralCenters ? center ?? 0 : 0
    }
}
