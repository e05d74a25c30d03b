import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// Owner-bound registrations end with their owner by design: a released token is bound to the
/// owner, not dropped, and R1 never fires for them.
@Suite struct OwnerBoundTokenStateTests {
    @Test("an owner-bound row whose token was released reads 'owner', is not dropped, and raises no R1")
    func ownerBoundIsNotOrphaned() throws {
        var script = TraceScript()
        script.register(7, "cartDidChange", kind: .ownerBound, observer: 50, site: 100)
        script.advance(TraceScript.ms)
        script.dropToken(7)
        script.advance(TraceScript.ms)
        script.postAndDeliver("cartDidChange", to: [7])
        var state = InspectorState()
        state.apply(script.events)
        state.checkpoint()
        let row = try #require(state.registration(7))
        #expect(row.isLive)
        #expect(!row.token.isDropped)
        #expect(row.token.description == "owner")
        #expect(!state.findings.contains { $0.rule == .orphanedRegistration })
    }

    @Test("an owner-bound registration reported with its token released in a late snapshot is bound too")
    func preexistingOwnerBound() throws {
        var script = TraceScript()
        script.register(8, "cartDidChange", kind: .ownerBound, observer: 51, site: 100, preexisting: true)
        script.dropToken(8)
        var state = InspectorState()
        state.apply(script.events)
        #expect(state.registration(8)?.token.description == "owner")
        #expect(!state.findings.contains { $0.rule == .orphanedRegistration })
    }

    @Test("a block registration's dropped token still orphans it (R1)")
    func blockStillOrphaned() throws {
        var script = TraceScript()
        script.register(9, "cartDidChange", kind: .block, site: 100)
        script.dropToken(9)
        var state = InspectorState()
        state.apply(script.events)
        #expect(state.registration(9)?.token.isDropped == true)
        #expect(state.findings.contains { $0.rule == .orphanedRegistration && $0.isOpen })
    }

    @Test("a snapshot's registration ages from the app's registration time, not the snapshot's")
    func snapshotAgesFromRegistrationTime() throws {
        var state = InspectorState()
        state.apply(
            .registered(
                TraceRegistration(
                    seq: 1, timestamp: 20 * TraceScript.second, thread: 1, id: 3, name: "launch", kind: .block,
                    observer: nil,
                    object: nil, target: .posting, targetLabel: nil, callsite: 1, preexisting: true,
                    capturesObserverStrongly: false, mainThreadOnly: false, registeredAt: 2 * TraceScript.second)))
        let row = try #require(state.registration(3))
        #expect(row.registeredAt == 2 * TraceScript.second)
        #expect(row.age(at: 20 * TraceScript.second) == 18 * TraceScript.second)
    }
}
