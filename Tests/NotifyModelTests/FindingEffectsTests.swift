import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

@Suite("A leak finding's effects: the runs it caused and the posts it made observers miss")
struct FindingEffectsTests {
    private func finding(_ state: InspectorState, _ rule: LeakRule) throws -> LeakFinding {
        try #require(state.findings.first { $0.rule == rule }, "no \(rule) finding")
    }

    @Test("R5: a duplicate's extra runs, one per post, naming the registration that ran first")
    func duplicateExtraRuns() throws {
        var script = TraceScript()
        script.register(1, "themeDidChange", kind: .target, observer: 7, site: 10)
        script.register(2, "themeDidChange", kind: .target, observer: 7, site: 20)
        let first = script.postAndDeliver("themeDidChange", to: [1, 2])
        let second = script.postAndDeliver("themeDidChange", to: [1, 2])
        let state = script.fold()
        let effects = state.effects(of: try finding(state, .duplicateRegistration))
        #expect(effects.effects.map(\.post?.postID) == [first, second])
        #expect(effects.effects.allSatisfy { $0.caused && $0.registration == 2 && $0.reason == "extra run" })
        #expect(effects.effects.first?.detail.contains("#1 already ran") == true)
        #expect(effects.effects.first?.delivery?.registration == 2)
        #expect(effects.notes.isEmpty)
    }

    @Test("R1: an orphaned registration's runs after its token was dropped, not before")
    func orphanRunsAfterDrop() throws {
        var script = TraceScript()
        script.register(1, "a", site: 10)
        script.postAndDeliver("a", to: [1])
        script.advance(TraceScript.ms)
        script.dropToken(1)
        script.advance(TraceScript.ms)
        let after = script.postAndDeliver("a", to: [1])
        let state = script.fold()
        let effects = state.effects(of: try finding(state, .orphanedRegistration)).effects
        #expect(effects.map(\.post?.postID) == [after])
        #expect(effects.first?.detail.contains("after its token was dropped") == true)
    }

    @Test("R3: the posts a registration missed because its owner died")
    func deadOwnerMissedPosts() throws {
        var script = TraceScript()
        script.register(1, "a", kind: .target, observer: 7, site: 10)
        script.postAndDeliver("a", to: [1])
        script.advance(TraceScript.ms)
        script.remove(1, reason: .observerDeallocated)
        script.advance(TraceScript.ms)
        let missed = script.post("a", matched: 0)
        let state = script.fold()
        let effects = state.effects(of: try finding(state, .deadParticipant)).effects
        #expect(effects.map(\.post?.postID) == [missed])
        #expect(effects.first?.caused == false)
        #expect(effects.first?.reason == "owner-dead")
    }

    @Test("R9: an unheard post, with the near-named registration that missed it")
    func unheardPost() throws {
        var script = TraceScript()
        script.register(1, "SessionDidChange", site: 10)
        let post = script.post("SesionDidChange", matched: 0)
        let state = script.fold()
        let effects = state.effects(of: try finding(state, .unheardPost)).effects
        #expect(effects.map(\.post?.postID) == [post])
        #expect(effects.first?.registration == 1)
        #expect(effects.first?.reason == "name-differs")
    }

    @Test("R8: a main-only handler's runs off the main thread, not those on it")
    func threadMismatchRuns() throws {
        var script = TraceScript()
        script.thread(1, name: "main", isMain: true)
        script.thread(2, name: "worker")
        script.register(1, "a", site: 10, mainOnly: true)
        script.postAndDeliver("a", to: [1], thread: 1)
        let off = script.postAndDeliver("a", to: [1], thread: 2)
        let state = script.fold()
        let effects = state.effects(of: try finding(state, .threadMismatch)).effects
        #expect(effects.map(\.post?.postID) == [off])
        #expect(effects.first?.caused == true)
    }

    @Test("Nothing kept: the effects say so instead of listing nothing silently")
    func nothingKept() throws {
        var script = TraceScript()
        script.register(1, "themeDidChange", kind: .target, observer: 7, site: 10)
        script.register(2, "themeDidChange", kind: .target, observer: 7, site: 20)
        let state = script.fold()
        let effects = state.effects(of: try finding(state, .duplicateRegistration))
        #expect(effects.effects.isEmpty)
        #expect(effects.notes.first?.contains("no delivery or post it affected is kept") == true)
    }
}
