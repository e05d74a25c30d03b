extension LeakEvidence {
    /// The evidence as labelled values, in the order a finding's detail lists them, empty fields
    /// left out: the Leaks view and a leak check's report print the same facts.
    ///
    /// - Parameters:
    ///   - duration: Formats nanoseconds.
    ///   - thread: Names a thread id.
    ///   - arrow: Joins the growth series (`" → "`, or `" -> "` in ASCII).
    ///   - rule: The finding's rule, where it says what ``count`` counts.
    package func fields(
        duration: (UInt64) -> String, thread: (UInt64) -> String, arrow: String = " → ", rule: LeakRule? = nil
    ) -> [(label: String, value: String)] {
        var fields: [(label: String, value: String)] = []
        func add(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            fields.append((label, value))
        }
        add("name", name)
        add("callsite", callsite?.description)
        add("observer", observer?.description)
        add("object filter", objectFilter?.description)
        add(rule == .neverPosted ? "checkpoints waited" : "count", count > 0 ? "\(count)" : nil)
        add("still live", liveCount > 0 ? "\(liveCount)" : nil)
        add("deliveries after", deliveriesAfter > 0 ? "\(deliveriesAfter)" : nil)
        add("one post ran", fanOut > 0 ? "\(fanOut) handlers" : nil)
        add("growth", series.isEmpty ? nil : series.map(String.init).joined(separator: arrow))
        add("duration", self.duration.map(duration))
        if let durations, durations.count > 0 {
            add("p50 / p95", duration(durations.percentile(0.5)) + " / " + duration(durations.percentile(0.95)))
        }
        add("posted on main", postingThreadIsMain.map { $0 ? "yes" : "no" })
        add("observers in post", observersInPost.map(String.init))
        add("threads", threads.isEmpty ? nil : threads.map(thread).joined(separator: ", "))
        add("nearest name", nearestName.map { name in name + (nearestDistance.map { " (distance \($0))" } ?? "") })
        add("posts in session", sessionPosts.map(String.init))
        add("also", foldedRules.isEmpty ? nil : foldedRules.map(\.description).joined(separator: ", "))
        add("note", detail)
        for site in relatedCallsites { add("related site", site.description) }
        return fields
    }
}
