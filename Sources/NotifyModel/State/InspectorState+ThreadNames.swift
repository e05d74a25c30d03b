/// Thread names are labels: two threads may share one (pool threads, queues with one label) and a
/// thread may be renamed (a worker delivering for another queue). The fold counts the names in
/// use so a view can add the id where a name alone would be ambiguous.
extension InspectorState {
    /// True when more than one tracked thread is called `name`.
    public func threadNameIsShared(_ name: String) -> Bool {
        (threadNameCounts[name] ?? 0) > 1
    }

    mutating func renameThreadRow(_ slot: Int, to name: String) {
        let old = threadRows[slot].name
        guard old != name else { return }
        countThreadName(old, by: -1)
        countThreadName(name, by: 1)
        threadRows[slot].name = name
    }

    mutating func countThreadName(_ name: String, by change: Int) {
        let count = (threadNameCounts[name] ?? 0) + change
        threadNameCounts[name] = count > 0 ? count : nil
    }

    mutating func recountThreadNames() {
        threadNameCounts = [:]
        for row in threadRows { countThreadName(row.name, by: 1) }
    }
}
