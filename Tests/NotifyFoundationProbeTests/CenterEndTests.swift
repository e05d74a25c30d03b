import NotifyFoundationProbe
import NotifyWire
import Testing

/// A `NotificationCenter` that deallocates ends its registrations (`center-ended`), and only its.
@Suite struct CenterEndTests {
    @Test func aCenterThatDeallocatesEndsItsRegistrationsOnly() {
        let events = probeEvents([
            // Two observers of "n" on private center c1 (one found live there), one on c0.
            "A 1 100 c1 0 0 f1 0 fa 12 12 S 6e e100000000000000", "a 1 101 0 0",
            "A 1 110 c1 0 0 f2 0 fa 12 12 S 6e e100000000000000", "a 1 111 1 0",
            "A 1 120 c0 0 0 f3 0 fa 13 13 S 6e e100000000000000", "a 1 121 0 0",
            "P 1 130 c1 0 0 fa 20 20 S 6e e100000000000000", "D 1 131 aaa f1 0", "D 1 132 bbb f2 0",
            "D 1 133 ccc f9 0", "p 1 134",
            "E 1 200 c1",
            // After its end, c1's token numbers are free: an add there is new, not a replacement.
            "P 1 300 c0 0 0 fa 20 20 S 6e e100000000000000", "D 1 301 ddd f3 0", "p 1 302",
        ])
        let removals = events.compactMap { if case .removed(let r) = $0 { r } else { nil } }
        #expect(removals.map(\.registration) == [1, 2, 4])
        #expect(removals.allSatisfy { $0.reason == .centerDeallocated && $0.timestamp == 200 && $0.callsite == nil })
        let posts = events.compactMap { if case .posted(let p) = $0 { p.matched } else { nil } }
        #expect(posts == [2, 1])
    }

    @Test func aCenterWithNoRegistrationsEndsQuietly() {
        let events = probeEvents(["E 1 200 c1"])
        #expect(events.isEmpty)
    }

    @Test func theProgramProbesTheCentersDeallocation() throws {
        let library = "/proc/4242/map_files/7fa5ea200000-7fa5ea782000"
        let text = try ProbeProgram(pid: 4242, library: library).text()
        let probe = text.split(separator: "\n").first { $0.contains(FoundationSymbols.centerDeinit) } ?? ""
        #expect(probe.hasPrefix("uprobe:\(library):\"$s20FoundationEssentials18NotificationCenterCfD\" /pid == 4242/"))
        #expect(probe.contains(#"printf("E %d %llu %lx\n", tid, $t, reg("r13"));"#))
    }
}
