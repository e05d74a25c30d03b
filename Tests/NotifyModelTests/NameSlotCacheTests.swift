import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

/// Names are found through hints in front of the name table; a hint that collides, or that names
/// a slot since forgotten and reused, must never count a post under the wrong name.
@Suite struct NameSlotCacheTests {
    @Test("more names than hint entries each keep their own counts")
    func collidingHintsStayExact() {
        var s = TraceScript()
        for round in 0..<2 {
            for index in 0..<600 { _ = s.post("app.name.\(index)", matched: 0, thread: UInt64(1 + round)) }
        }
        let state = s.fold()
        for index in 0..<600 {
            #expect(state.name("app.name.\(index)")?.posts == 2, "app.name.\(index)")
        }
        #expect(state.name("*")?.posts == 1_200)
    }

    @Test("a name forgotten and posted again counts from a fresh row, not in its old slot's new name")
    func reusedSlotsAreNotMistaken() {
        var configuration = InspectorConfiguration()
        configuration.maximumNames = 8
        var s = TraceScript()
        // Time moves between posts, so the least recently used names are the ones forgotten.
        for index in 0..<100 {
            s.advance(TraceScript.ms)
            _ = s.post("long.notification.name.\(index)", matched: 0)
        }
        s.advance(TraceScript.ms)
        _ = s.post("long.notification.name.0", matched: 0)
        s.advance(TraceScript.ms)
        _ = s.post("long.notification.name.99", matched: 0)
        let state = s.fold(configuration)
        #expect(state.name("long.notification.name.0")?.posts == 1)
        #expect(state.name("long.notification.name.99")?.posts == 2)
        #expect(state.name("long.notification.name.1") == nil)
    }

    @Test("a name spelled * is a name of its own, not the wildcard row")
    func starIsNotTheWildcard() {
        var s = TraceScript()
        s.register(1, nil)
        s.postAndDeliver("*", to: [1])
        _ = s.post("*", matched: 0)
        let state = s.fold()
        let named = state.names.filter { !$0.isWildcard }
        #expect(named.map(\.name) == ["*"])
        #expect(named.first?.posts == 2)
        #expect(state.names.first?.deliveries == 1)
    }
}
