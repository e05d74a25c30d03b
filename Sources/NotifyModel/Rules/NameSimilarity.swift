/// Whether two notification names are "near", so one is likely a typo of the other (R9, R10).
///
/// Near means: equal ignoring case; or within an edit distance; or the same
/// after dropping the common affixes (a leading `k` or `NS`, a trailing `Notification`); or one
/// is the other plus a prefix or suffix word (`kNetworkReachabilityChanged…` and
/// `kReachabilityChanged…`, Reachability#163). Cheap rejections come first: most pairs never
/// reach the edit-distance computation.
enum NameSimilarity {
    /// Names longer than this many scalars are near another only when equal ignoring case: a
    /// typo is a slip in a name someone types, and comparing longer ones would cost the fold.
    static let maximumComparedLength = 256
    /// The most a reported distance says exactly; farther is reported as one more than this.
    static let maximumReportedDistance = 64
    /// The shortest core that is near a longer one it begins or ends.
    static let minimumAffixLength = 8

    /// The edit distance between `a` and `b` when they are near; nil otherwise (or when equal).
    ///
    /// - Complexity: O(n · k) for names of n scalars and `maximumDistance` k (bands, never the
    ///   whole n × m table), and O(n) for names over ``maximumComparedLength``.
    static func nearness(_ a: String, _ b: String, maximumDistance: Int) -> Int? {
        guard a != b else { return nil }
        let lowerA = Array(a.lowercased().unicodeScalars)
        let lowerB = Array(b.lowercased().unicodeScalars)
        if lowerA == lowerB { return reported(a, b) }
        guard lowerA.count <= maximumComparedLength, lowerB.count <= maximumComparedLength else { return nil }
        if distance(lowerA, lowerB, atMost: maximumDistance) != nil { return reported(a, b) }
        let coreA = core(lowerA)
        let coreB = core(lowerB)
        let (short, long) = coreA.count <= coreB.count ? (coreA, coreB) : (coreB, coreA)
        let near =
            short == long
            || distance(short, long, atMost: maximumDistance) != nil
            || (short.count >= minimumAffixLength
                && (long.starts(with: short) || long.reversed().starts(with: short.reversed())))
        return near ? reported(a, b) : nil
    }

    /// The distance a finding reports: exact up to ``maximumReportedDistance``.
    private static func reported(_ a: String, _ b: String) -> Int {
        distance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: maximumReportedDistance)
            ?? maximumReportedDistance + 1
    }

    /// The nearest of `candidates` to `name`, with its distance; ties go to the first.
    static func nearest(
        to name: String, among candidates: some Sequence<String>,
        maximumDistance: Int
    ) -> (name: String, distance: Int)? {
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            guard let distance = nearness(name, candidate, maximumDistance: maximumDistance) else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best
    }

    /// The name without a leading `k` / `ns` and a trailing `notification` (already lowercased).
    static func core(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var slice = scalars[...]
        let suffix = Array("notification".unicodeScalars)
        if slice.count > suffix.count, slice.suffix(suffix.count).elementsEqual(suffix) {
            slice = slice.dropLast(suffix.count)
        }
        if slice.count > 2, slice.starts(with: "ns".unicodeScalars) {
            slice = slice.dropFirst(2)
        } else if slice.count > 1, slice.first == "k" {
            slice = slice.dropFirst()
        }
        return Array(slice)
    }

    /// Levenshtein distance over Unicode scalars, in two rows of memory.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        distance(a, b, atMost: max(a.count, b.count))!
    }

    /// Levenshtein distance over Unicode scalars when it is at most `limit`; nil when farther.
    /// Only the band of cells within `limit` of the diagonal is computed (Ukkonen), so the cost
    /// is O(n · limit), not O(n · m).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let far = limit + 1
        var previous = [Int](repeating: far, count: b.count + 1)
        var current = [Int](repeating: far, count: b.count + 1)
        for j in 0...min(b.count, limit) { previous[j] = j }
        for i in 1...a.count {
            let low = max(1, i - limit)
            let high = min(b.count, i + limit)
            current[0] = i <= limit ? i : far
            if low > 1 { current[low - 1] = far }
            var best = current[0]
            if low <= high {
                for j in low...high {
                    let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    let value = min(previous[j] + 1, current[j - 1] + 1, substitution)
                    current[j] = min(value, far)
                    best = min(best, current[j])
                }
            }
            if high < b.count { current[high + 1] = far }
            // Every path through this row is already farther than the limit.
            if best > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
