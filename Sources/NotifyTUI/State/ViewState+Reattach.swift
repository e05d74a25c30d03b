extension ViewState {
    /// A new process replaced the one on screen (a reattach): its registrations, threads and
    /// objects are numbered afresh, so every drill-down and selection that named the old ones
    /// goes; each view returns to its top table, scrolled to the start. Filters, sorts, groupings,
    /// folds and layouts are the user's choices about any process and stay. Marks and clears read the
    /// old stream's clock, so they go too. The Log view (the session's own actions) keeps its state.
    package mutating func forgetProcess() {
        drill = [:]
        let log = "\(ViewID.log.rawValue)"
        for key in tables.keys where key != log && !key.hasPrefix(log + "/") {
            tables[key]?.selectedKey = nil
            tables[key]?.selectedIndex = 0
            tables[key]?.scroll = 0
            tables[key]?.follow = true
        }
        for key in logs.keys where key != .log { logs[key] = nil }
    }
}
