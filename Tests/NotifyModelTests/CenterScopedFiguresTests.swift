import Foundation
import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

/// With several centers in one stream, what is shown with observers counts only what could reach
/// them: the `*` row counts the posts to a center where a wildcard observer is registered, and a
/// finding's signature (what a baseline keeps) names its center, so two centers' findings at one
/// line stay two.
@Suite("Figures and signatures per center")
struct CenterScopedFiguresTests {
    @Test("the * row counts only posts to a center where a wildcard observer could hear them")
    func wildcardRowCountsItsCentersPosts() {
        var script = TraceScript(centers: ["default", "private"])
        script.register(1, nil, site: 10, center: 1)
        script.post("a", matched: 0, center: 0)
        script.post("b", matched: 0, center: 0)
        let heard = script.post("a", matched: 1, center: 1)
        script.deliver(heard, to: 1, name: "a")
        script.remove(1, reason: .explicit)
        script.post("a", matched: 0, center: 1)
        let state = script.fold()
        #expect(state.name("*")?.posts == 1)
        #expect(state.name("*")?.deliveries == 1)
        #expect(state.name("a")?.posts == 3)
    }

    @Test("a wildcard observer registered before a second center is introduced still hears its own center's posts")
    func wildcardBeforeASecondCenter() {
        var script = TraceScript()
        script.register(1, nil)
        script.post("a", matched: 1)
        script.introduceCenter(1, label: "private")
        script.post("a", matched: 1, center: 0)
        script.post("b", matched: 0, center: 1)
        #expect(script.fold().name("*")?.posts == 2)
    }

    @Test("once a second center appears, the * row counts from the start only the posts a wildcard could hear")
    func postsBeforeAWildcardLeaveTheRowWhenASecondCenterAppears() {
        var script = TraceScript()
        script.post("a", matched: 0)
        script.register(1, nil)
        script.post("a", matched: 1)
        #expect(script.fold().name("*")?.posts == 2)
        script.introduceCenter(1, label: "private")
        script.post("b", matched: 0, center: 1)
        script.post("b", matched: 1, center: 0)
        #expect(script.fold().name("*")?.posts == 2)
    }

    @Test("a finding keeps its registration's center after the registration's row retires")
    func findingKeepsItsCenterAfterRetirement() {
        var script = TraceScript(centers: ["default", "private"])
        script.register(1, "a", site: 10, center: 1)
        let post = script.post("a", matched: 1, center: 1)
        script.deliver(post, to: 1, name: "a", duration: 200_000_000)
        script.remove(1, reason: .explicit)
        #expect(script.fold().findings.first { $0.rule == .slowHandler }?.center == "private")
        script.advance(120_000_000_000)
        script.tick()
        let state = script.fold()
        #expect(state.registration(1) == nil)
        #expect(state.findings.first { $0.rule == .slowHandler }?.center == "private")
    }

    @Test("with one center, the * row still counts every post")
    func oneCenterCountsEveryPost() {
        var script = TraceScript()
        script.post("a", matched: 0)
        script.register(1, nil)
        script.post("b", matched: 1)
        #expect(script.fold().name("*")?.posts == 2)
    }

    /// R5 at one line for one name, on each of two centers.
    private func duplicatesOnTwoCenters() -> [LeakFinding] {
        var script = TraceScript(centers: ["default", "sync"])
        for (id, center) in [(1, 0), (2, 0), (3, 1), (4, 1)] as [(UInt64, UInt32)] {
            script.register(id, "themeDidChange", kind: .target, observer: 7 + UInt64(center), site: 20, center: center)
        }
        return script.fold().findings.filter { $0.rule == .duplicateRegistration }
    }

    @Test("two centers' findings at one line keep two signatures, each naming its center")
    func signaturesNameTheirCenter() throws {
        let signatures = duplicatesOnTwoCenters().map(\.signature)
        #expect(signatures.count == 2)
        #expect(Set(signatures).count == 2)
        #expect(Set(signatures.map(\.center)) == ["default", "sync"])
        #expect(signatures.allSatisfy { $0.description.hasSuffix(" on \($0.center!)") })
        let encoded = try JSONEncoder().encode(signatures.sorted())
        let decoded = try JSONDecoder().decode([LeakSignature].self, from: encoded)
        #expect(decoded == signatures.sorted())
    }

    @Test("with one center a signature has no center: a baseline written before centers reads the same")
    func oneCenterSignaturesAreUnchanged() throws {
        var script = TraceScript()
        script.register(1, "themeDidChange", kind: .target, observer: 7, site: 20)
        script.register(2, "themeDidChange", kind: .target, observer: 7, site: 20)
        let signature = try #require(script.fold().findings.first { $0.rule == .duplicateRegistration }?.signature)
        #expect(signature.center == nil)
        let json = String(decoding: try JSONEncoder().encode(signature), as: UTF8.self)
        #expect(!json.contains("center"))
        let old = #"{"rule":"R5","name":"themeDidChange","site":"\#(signature.site ?? "")","owner":"App.Screen"}"#
        #expect(try JSONDecoder().decode(LeakSignature.self, from: Data(old.utf8)) == signature)
    }
}
