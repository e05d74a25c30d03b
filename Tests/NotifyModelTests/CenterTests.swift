import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

/// One stream carrying two centers, `default` (0) and `sync` (1): rows carry their center, a
/// post is explained against the registrations of its own center, and the rules that pair
/// registrations pair them only on one center.
@Suite("Several centers in one stream")
struct CenterTests {
    /// Registration 1 on `default`, 2 on `sync`, both observing `cartDidChange` with no filter.
    private func twoCenters() -> TraceScript {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(1, "cartDidChange", center: 0)
        script.register(2, "cartDidChange", site: 101, center: 1)
        return script
    }

    private func verdict(_ state: InspectorState, _ name: String, _ id: UInt64) -> ExplanationVerdict? {
        state.explain(name: name).posts.last?.considered.first { $0.registration == id }
    }

    @Test("observers carry their center; the state names the centers")
    func rowsCarryTheirCenter() {
        let state = twoCenters().fold()
        #expect(state.centers == ["default", "sync"])
        #expect(state.carriesSeveralCenters)
        #expect(state.registrations.map(\.center) == [0, 1])
        #expect(state.registrations.map { state.centerLabel(of: $0) } == ["default", "sync"])
    }

    @Test("a post on one center misses the other center's observer with other-center, naming both")
    func otherCenter() throws {
        var script = twoCenters()
        let post = script.post("cartDidChange", matched: 1, center: 0)
        script.deliver(post, to: 1, name: "cartDidChange")
        let state = script.fold()
        #expect(verdict(state, "cartDidChange", 1)?.reason == .delivered)
        #expect(verdict(state, "cartDidChange", 1)?.center == "default")
        let missed = try #require(verdict(state, "cartDidChange", 2))
        #expect(missed.reason == .otherCenter)
        #expect(missed.reason.rawValue == "other-center")
        #expect(missed.center == "sync")
        #expect(missed.detail == #"registered on center "sync"; the post went to center "default""#)
        #expect(state.explain(name: "cartDidChange").posts.last?.post.center == "default")

        let registration = try #require(state.explain(registration: 2))
        #expect(registration.posts.map { $0.considered.first?.reason } == [.otherCenter])
    }

    @Test("other-center is weighed before everything but delivered: an ended, later, filtered one says it")
    func otherCenterComesFirst() {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(1, "cartDidChange", object: 50, center: 1)
        script.register(2, "cartDidChange", site: 102, center: 1)
        script.remove(2, reason: .explicit)
        script.post("cartDidChange", matched: 0, object: 51, center: 0)
        script.advance(TraceScript.ms)
        script.register(3, "cartDidChange", site: 103, center: 1)
        script.register(4, "cartDidChange", site: 104, center: 0)
        let state = script.fold()
        for id: UInt64 in [1, 2, 3] { #expect(verdict(state, "cartDidChange", id)?.reason == .otherCenter) }
        let later = state.explain(name: "cartDidChange", registration: 4).posts.last?.considered.first
        #expect(later?.reason == .registeredAfter)
        #expect(later?.center == "default")
        #expect(state.explain(name: "cartDidChange").posts.last?.registeredLater?.count == 1)
    }

    @Test("one center: no center anywhere, and a stray center index changes nothing")
    func oneCenter() {
        var script = TraceScript()
        script.register(1, "cartDidChange", center: 0)
        script.register(2, "cartDidChange", site: 101, center: 1)
        script.post("cartDidChange", matched: 0, center: 0)
        let state = script.fold()
        #expect(state.centers == nil)
        #expect(!state.carriesSeveralCenters)
        #expect(state.registrations.map(\.center) == [0, 0])
        #expect(state.registrations.allSatisfy { state.centerLabel(of: $0) == nil })
        let explained = state.explain(name: "cartDidChange").posts.last
        #expect(explained?.post.center == nil)
        #expect(explained?.considered.allSatisfy { $0.reason != .otherCenter && $0.center == nil } == true)
    }

    @Test("a center index beyond the header's labels reads as center N")
    func unnamedCenter() {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(1, "cartDidChange", center: 7)
        script.register(2, "cartDidChange", site: 101, center: .max)
        script.post("cartDidChange", matched: 0, center: 0)
        let state = script.fold()
        #expect(state.registrations.map { state.centerLabel(of: $0) } == ["center 7", "center 4294967295"])
        #expect(verdict(state, "cartDidChange", 1)?.detail.contains(#"center "center 7""#) == true)
    }

    @Test("R5: the same owner registered on two centers is no duplicate; twice on one center it is")
    func duplicatesStayOnOneCenter() {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(1, "themeDidChange", kind: .target, observer: 7, site: 10, center: 0)
        script.register(2, "themeDidChange", kind: .target, observer: 7, site: 20, center: 1)
        script.register(3, "a", site: 30, center: 0)
        script.register(4, "a", site: 30, center: 1)
        #expect(script.fold().findings.filter { $0.rule == .duplicateRegistration }.isEmpty)
        script.register(5, "themeDidChange", kind: .target, observer: 7, site: 20, center: 1)
        let findings = script.fold().findings.filter { $0.rule == .duplicateRegistration && $0.isOpen }
        #expect(findings.count == 1)
        #expect(findings.first?.evidence.registrations == [2, 5])
    }

    @Test("R2: an owner that leaves one center and registers again on the other wanted nothing it missed")
    func prematureRemovalStaysOnOneCenter() {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(1, "themeDidChange", kind: .target, observer: 7, site: 10, center: 0)
        script.remove(1, reason: .explicit)
        script.post("themeDidChange", matched: 0, center: 0)
        script.register(2, "themeDidChange", kind: .target, observer: 7, site: 20, center: 1)
        #expect(script.fold().findings.filter { $0.rule == .prematureRemoval }.isEmpty)
        script.remove(2, reason: .explicit)
        script.register(3, "themeDidChange", kind: .target, observer: 7, site: 30, center: 0)
        // The gap on `default` was taken by nothing: this one closes it.
        #expect(script.fold().findings.filter { $0.rule == .prematureRemoval }.count == 1)
    }

    @Test("R2: the posts an owner missed are those of its own center, not the other center's")
    func prematureRemovalCountsItsCenter() throws {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(1, "themeDidChange", kind: .target, observer: 7, site: 10, center: 0)
        script.register(2, "themeDidChange", kind: .target, observer: 8, site: 11, center: 1)
        script.remove(1, reason: .explicit)
        script.post("themeDidChange", matched: 1, center: 1)
        script.post("themeDidChange", matched: 0, center: 0)
        script.post("themeDidChange", matched: 1, center: 1)
        script.register(3, "themeDidChange", kind: .target, observer: 7, site: 30, center: 0)
        let finding = try #require(script.fold().findings.first { $0.rule == .prematureRemoval })
        #expect(finding.evidence.count == 1)
        #expect(finding.summary.contains("missed 1 post(s)"), "\(finding.summary)")

        // Two owners waiting on one name and center each count from their own removal.
        script.remove(3, reason: .explicit)
        script.register(4, "themeDidChange", kind: .target, observer: 9, site: 40, center: 0)
        script.post("themeDidChange", matched: 1, center: 0)
        script.remove(4, reason: .explicit)
        script.post("themeDidChange", matched: 0, center: 0)
        script.post("themeDidChange", matched: 0, center: 1)
        script.register(5, "themeDidChange", kind: .target, observer: 7, site: 30, center: 0)
        script.register(6, "themeDidChange", kind: .target, observer: 9, site: 41, center: 0)
        let findings = script.fold().findings.filter { $0.rule == .prematureRemoval }
        #expect(findings.first { $0.evidence.registrations.contains(5) }?.evidence.count == 1 + 2)
        #expect(findings.first { $0.evidence.registrations.contains(6) }?.evidence.count == 1)
    }

    /// `script` with a post of `cartDidChange` (to `center`) delivered to #2, then #2 removed and,
    /// a minute later, retired by the model.
    private func foldRetiring(_ script: TraceScript, postedTo center: UInt32?) -> InspectorState {
        var script = script
        let post = script.post("cartDidChange", matched: 1, center: center)
        script.deliver(post, to: 2, name: "cartDidChange")
        script.remove(2, reason: .explicit)
        var state = script.fold()
        state.tick(now: script.time + 61 * TraceScript.second)
        return state
    }

    @Test("a delivery to a registration the model no longer tracks is on the post's center")
    func retiredRegistrationTakesThePostsCenter() throws {
        let state = foldRetiring(twoCenters(), postedTo: 1)
        #expect(state.registration(2) == nil)
        let retired = try #require(verdict(state, "cartDidChange", 2))
        #expect(retired.reason == .delivered)
        #expect(retired.name == "?")
        #expect(retired.center == "sync")
        #expect(verdict(state, "cartDidChange", 1)?.reason == .otherCenter)

        var one = TraceScript()
        one.register(2, "cartDidChange")
        let oneState = foldRetiring(one, postedTo: nil)
        #expect(oneState.registration(2) == nil)
        let untracked = try #require(verdict(oneState, "cartDidChange", 2))
        #expect(untracked.reason == .delivered && untracked.center == nil)
    }

    @Test("a cascade crosses centers: a handler on one center posts to the other, and each post says its center")
    func cascadeAcrossCenters() throws {
        let (script, parent, child) = TraceScript.crossCenterCascade()
        let state = script.fold()
        let cascade = try #require(state.cascade(post: parent))
        #expect(cascade.root.post.center == "default")
        let nested = try #require(cascade.root.deliveries.first?.nested.first)
        #expect(nested.post.postID == child)
        #expect(nested.post.center == "sync")
        #expect(nested.deliveries.map(\.delivery.registration) == [2])
        #expect(state.cascadePost(id: child)?.center == "sync")
    }
}
