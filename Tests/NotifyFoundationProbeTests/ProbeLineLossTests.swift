import NotifyFoundationProbe
import NotifyWire
import Testing

/// The lines that reach notifytop are reconciled with the kernel's counts of each probe's lines:
/// what is missing and no loss reported becomes a gap `probe-lines-lost`, so the losses shown are
/// never fewer than the lines missing; while lines are known lost, no registration is made up.
@Suite struct ProbeLineLossTests {
    /// The events `lines` become, then those of the final reconciliation (the stream's end).
    func eventsReconciled(_ lines: [String]) -> [TraceEvent] {
        probeEvents(lines, reconciled: true)
    }

    func gaps(_ events: [TraceEvent]) -> [String] {
        events.compactMap { if case .gap(let gap) = $0 { "\(gap.reason.rawValue) \(gap.count)" } else { nil } }
    }

    /// An observer of "n" on c0 (closure f1), then `posts` posts of "n", each delivered once.
    func observedPosts(_ posts: Int) -> [String] {
        ["A 1 100 c0 0 0 f1 0 fa 12 12 S 6e e100000000000000", "a 1 101 0 0"]
            + (0..<posts).flatMap { index in
                let time = 200 + 10 * index
                return [
                    "P 1 \(time) c0 0 0 fa 20 20 S 6e e100000000000000", "D 1 \(time + 1) aaa f1 0", "p 1 \(time + 2)",
                ]
            }
    }

    /// A `C` line: the kernel's counts in ``ProbeLineKind`` order (A a P R D d p Q O o X E, then
    /// the typed message kinds, 0 when not given).
    func counts(at time: Int, _ lines: [UInt64]) -> String {
        let padded = lines + [UInt64](repeating: 0, count: max(0, ProbeLineKind.allCases.count - lines.count))
        return "C 0 \(time) " + padded.map(String.init).joined(separator: " ")
    }

    @Test func linesTheKernelCountedThatNeverArrivedAreAGapOfTheirOwn() {
        // Five posts printed, three arrived, and bpftrace said nothing.
        let events = eventsReconciled(observedPosts(3) + [counts(at: 1_000, [1, 1, 5, 0, 5, 0, 5, 0, 0, 0, 0, 0])])
        #expect(gaps(events) == ["probe-lines-lost 6"])
        #expect(events.filter { if case .posted = $0 { true } else { false } }.count == 3)
    }

    @Test func aLossBpftraceReportedIsNotCountedTwice() {
        // bpftrace reported 4 lost; the counts then show 6 missing: 2 more.
        let events = eventsReconciled(
            observedPosts(3) + ["Lost 4 events", counts(at: 1_000, [1, 1, 5, 0, 5, 0, 5, 0, 0, 0, 0, 0])])
        #expect(gaps(events) == ["probe-buffer-full 4", "probe-lines-lost 2"])
    }

    @Test func theCountsBpftracePrintsAsItExitsReconcileTheEnd() {
        // The last lines never arrived (the process exited): bpftrace's exit map, per CPU, says so.
        let events = eventsReconciled(
            observedPosts(3) + [
                counts(at: 1_000, [1, 1, 3, 0, 3, 0, 3, 0, 0, 0, 0, 0]), "@c[0, 0]: 1", "@c[1, 0]: 1", "@c[2, 0]: 3",
                "@c[2, 1]: 4", "@c[4, 1]: 7", "@c[6, 0]: 7",
            ])
        #expect(gaps(events) == ["probe-lines-lost 12"])
    }

    @Test func countsNearTwoToTheSixtyFourSaturate() {
        let events = eventsReconciled(
            observedPosts(1) + [
                counts(at: 1_000, [UInt64.max, 1, UInt64.max, 0, 1, 0, 1, 0, 0, 0, 0, 0]),
                "@c[2, 0]: 18446744073709551615", "@c[2, 1]: 18446744073709551615",
            ])
        #expect(gaps(events) == ["probe-lines-lost 18446744073709551615"])
    }

    @Test func countsOfAnotherMapOrKindAreNotTaken() {
        #expect(ProbeLine("@c[99, 0]: 5") == nil)
        #expect(ProbeLine("@d[1, 0]: 5") == nil)
        #expect(ProbeLine("C 0 1000 1 2 3") == nil)
        #expect(ProbeLine("@c[2, 1]: 5") == .finalCount(kind: 2, count: 5))
    }

    @Test func whileLinesAreKnownLostNoObserverIsMadeUpFromAnOrphanDelivery() {
        // A delivery of a closure never seen registering, after a loss: its add may be what was lost.
        let orphan = ["P 1 500 c0 0 0 fa 20 20 S 6f e100000000000000", "D 1 501 bbb f2 0", "p 1 502"]
        let lost = eventsReconciled(observedPosts(1) + ["Lost 2 events"] + orphan)
        #expect(!lost.contains { if case .registered(let r) = $0 { r.preexisting } else { false } })
        #expect(!lost.contains { if case .delivered(let d) = $0 { d.name == "o" } else { false } })
        // Without a loss it is an observer registered before attach.
        let whole = eventsReconciled(observedPosts(1) + orphan)
        #expect(whole.contains { if case .registered(let r) = $0 { r.preexisting } else { false } })
    }

    @Test func countsThatFindNoRegistrationLostLetOrphansBeFoundLiveAgain() {
        let orphan = ["P 1 600 c0 0 0 fa 20 20 S 6f e100000000000000", "D 1 601 bbb f2 0", "p 1 602"]
        // Only post lines were lost: the adds all arrived.
        let postsLost = eventsReconciled(
            observedPosts(1) + ["Lost 2 events", counts(at: 500, [1, 1, 2, 0, 1, 0, 2, 0, 0, 0, 0, 0])] + orphan)
        #expect(postsLost.contains { if case .registered(let r) = $0 { r.preexisting } else { false } })
        // An add's return was lost: any orphan may be its observer's, for good.
        let addLost = eventsReconciled(
            observedPosts(1) + [counts(at: 500, [2, 2, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0])] + orphan)
        #expect(!addLost.contains { if case .registered(let r) = $0 { r.preexisting } else { false } })
    }

    @Test func whileLinesAreKnownLostARemovalOfAnUnheldTokenIsNoMissedRemoval() {
        // Removed, then (its add again lost) removed again: not reported as ending nothing.
        let lines = [
            "A 1 100 c0 0 0 f1 0 fa 12 12 S 6e e100000000000000", "a 1 101 0 0",
            "R 1 200 c0 0 0 fa 30 30 S 6e e100000000000000",
        ]
        let again = "R 1 400 c0 0 0 fa 31 31 S 6e e100000000000000"
        let lost = eventsReconciled(lines + ["Lost 2 events", again])
        #expect(!lost.contains { if case .removeMissed = $0 { true } else { false } })
        let whole = eventsReconciled(lines + [again])
        #expect(whole.contains { if case .removeMissed = $0 { true } else { false } })
    }
}
