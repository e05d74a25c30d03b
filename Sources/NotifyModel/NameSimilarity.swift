/// Whether two notification names are "near", so one is likely a typo of the other (R9, R10).
///
/// Near means: equal ignoring case; or within an edit distance; or the same
/// after dropping the common affixes (a leading `k` or `NS`, a trailing `Notification`); or one
/// is the other plus a prefix or suffix word (`kNetworkReachabilityChanged…` and
/// `kReachabilityChanged…`, Reachability#163). Cheap rejections come first: most pairs never
/// reach the edit-distance computation.
enum NameSimilarity {
    /// The edit distance between `a` and `b` when they are near; nil otherwise (or when equal).
    static func nearness(_ a: String, _ b: String, maximumDistance: Int) -> Int? {
        guard a != b else { return nil }
        let lowerA = Array(a.lowercased().unicodeScalars)
        let lowerB = Array(b.lowercased().unicodeScalars)
        if lowerA == lowerB { return distance(Array(a.unicodeScalars), Array(b.unicodeScalars)) }
        if abs(lowerA.count - lowerB.count) <= maximumDistance, distance(lowerA, lowerB) <= maximumDistance {
            return distance(Array(a.unicodeScalars), Array(b.unicodeScalars))
        }
        let coreA = core(lowerA)
        let coreB = core(lowerB)
        let (short, long) = coreA.count <= coreB.count ? (coreA, coreB) : (coreB, coreA)
        let near =
            short == long
            || (long.count - short.count <= maximumDistance && distance(short, long) <= maximumDistance)
            || (short.count >= 8 && (long.starts(with: short) || long.reversed().starts(with: short.reversed())))
        return near ? distance(Array(a.unicodeScalars), Array(b.unicodeScalars)) : nil
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
    private static func core(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
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
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
