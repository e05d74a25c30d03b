import NotifyDemo
import NotifyModel

/// A fold against the demo's own account of the run: one line per mismatch, empty when they agree.
enum TruthComparison {
    /// Totals, per-name and per-thread figures, and a finding for each planted bug.
    static func mismatches(_ state: InspectorState, _ truth: GroundTruth) -> [String] {
        var out: [String] = []
        func check<T: Equatable>(_ what: String, _ model: T, _ truth: T) {
            if model != truth { out.append("\(what): model \(model), truth \(truth)") }
        }
        check("events lost", state.eventsLost, 0)
        check("posts", state.totals.posts, UInt64(truth.posts))
        check("deliveries", state.totals.deliveries, UInt64(truth.deliveries))
        check("registrations", state.totals.registrations, UInt64(truth.registrations))
        check("removals", state.totals.removals, UInt64(truth.removals))
        check("live registrations", state.liveRegistrations, truth.registrationsLive)
        return out + figureMismatches(state, truth) + bugMismatches(state, truth)
    }

    /// Posts, deliveries and live registrations per name; posts and deliveries per thread.
    static func figureMismatches(_ state: InspectorState, _ truth: GroundTruth) -> [String] {
        var out: [String] = []
        func check<T: Equatable>(_ what: String, _ model: T, _ truth: T) {
            if model != truth { out.append("\(what): model \(model), truth \(truth)") }
        }
        var posts: [String: Int] = [:]
        var deliveries: [String: Int] = [:]
        var live: [String: Int] = [:]
        for row in state.names {
            if row.posts > 0 && !row.isWildcard { posts[row.name] = Int(row.posts) }
            if row.deliveries > 0 && !row.isWildcard { deliveries[row.name] = Int(row.deliveries) }
            if row.liveObservers > 0 { live[row.name] = row.liveObservers }
        }
        check("posts per name", posts, truth.postsByName)
        check("deliveries per name", deliveries, truth.deliveriesByName)
        check("live registrations per name", live, truth.liveRegistrationsByName)
        var threadPosts: [UInt64: Int] = [:]
        var threadDeliveries: [UInt64: Int] = [:]
        for row in state.threads {
            if row.posts > 0 { threadPosts[row.id] = Int(row.posts) }
            if row.deliveries > 0 { threadDeliveries[row.id] = Int(row.deliveries) }
        }
        check(
            "posts per thread", threadPosts,
            Dictionary(uniqueKeysWithValues: truth.threads.filter { $0.posts > 0 }.map { ($0.id, $0.posts) }))
        check(
            "deliveries per thread", threadDeliveries,
            Dictionary(uniqueKeysWithValues: truth.threads.filter { $0.deliveries > 0 }.map { ($0.id, $0.deliveries) }))
        return out
    }

    /// A finding of each planted bug's rule about its name, and for R5 and R9, the rules that must
    /// find mistakes rather than patterns, nothing else.
    static func bugMismatches(_ state: InspectorState, _ truth: GroundTruth, exactRules: Bool = false) -> [String] {
        var out: [String] = []
        for bug in truth.bugs {
            guard let rule = LeakRule(demoRule: bug.rule) else {
                out.append("\(bug.bug): no rule \(bug.rule)")
                continue
            }
            if !state.findings.contains(where: { $0.rule == rule && $0.evidence.name == bug.name }) {
                out.append("\(bug.bug): no \(rule.code) about \(bug.name)")
            }
        }
        guard exactRules else { return out }
        for rule in [LeakRule.duplicateRegistration, .unheardPost] {
            let planted = Set(truth.bugs.filter { LeakRule(demoRule: $0.rule) == rule }.map(\.name))
            let reported = Set(state.findings.filter { $0.rule == rule }.compactMap(\.evidence.name))
            if reported != planted {
                out.append("\(rule.code) findings: \(reported.sorted()), planted \(planted.sorted())")
            }
        }
        return out
    }
}
