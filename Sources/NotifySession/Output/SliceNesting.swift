/// Keeps the slices of one track properly nested, as Perfetto's JSON importer requires: two slices
/// on a track are disjoint or one contains the other, never partly overlapping.
///
/// Slices are placed in the order they end (a trace reports a handler when it returns, so an inner
/// handler comes before the one around it). Then only the outermost slices placed so far (the
/// roots, disjoint and in time order) can conflict with a new one: a new slice contains the roots
/// it starts before, follows the ones that ended before it starts, and partly overlaps at most the
/// root it starts inside, whose end then becomes its start. A slice that arrives out of that order
/// and overlaps what is placed cannot be checked against the children it may cross: it shrinks to
/// an instant at the end of the last root. Either way the slice counts as adjusted.
package struct SliceNesting {
    /// Placed slices no other placed slice contains, in time order; at most twice ``maximumRoots``.
    private var roots: [(start: UInt64, end: UInt64)] = []
    /// The span of roots dropped to stay bounded, which a new slice must contain whole or follow.
    private var dropped: (start: UInt64, end: UInt64)?

    /// A track with nothing placed.
    package init() {}
    /// Roots kept per track.
    package static let maximumRoots = 1_024

    /// Where a slice from `start` to `end` (`end >= start`) may go: the same span, or one moved so
    /// that it nests. `adjusted` says which.
    package mutating func place(start: UInt64, end: UInt64) -> (start: UInt64, end: UInt64, adjusted: Bool) {
        var start = start
        var end = max(start, end)
        var adjusted = false
        if let last = roots.last, end < last.end, start < last.end {
            // Out of end order and crossing what is placed: an instant after it.
            start = last.end
            end = last.end
            adjusted = true
        }
        if let dropped, start > dropped.start, start < dropped.end {
            start = dropped.end
            end = max(start, end)
            adjusted = true
        }
        // The roots this slice contains, from the first whose end is past its start.
        var first = roots.count
        while first > 0 && roots[first - 1].end > start { first -= 1 }
        if first < roots.count && roots[first].start < start {
            // Starts inside a root and ends after it: start where that root ends.
            start = roots[first].end
            end = max(start, end)
            adjusted = true
            first += 1
        }
        roots.removeSubrange(first...)
        if first == 0, let span = dropped, start <= span.start { dropped = nil }
        roots.append((start, end))
        if roots.count > 2 * Self.maximumRoots {
            // Half at a time, so keeping the bound costs no more than appending.
            dropped = (dropped?.start ?? roots[0].start, roots[Self.maximumRoots - 1].end)
            roots.removeFirst(Self.maximumRoots)
        }
        return (start, end, adjusted)
    }
}
