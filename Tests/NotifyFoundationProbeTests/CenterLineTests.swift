import NotifyFoundationProbe
import NotifyWire
import Testing

/// Each Foundation center the probes see is a center of the stream: the first is the header's, each
/// other is introduced by a `center` line and named on its registrations and posts, so the model
/// counts the `*` row and names findings per center. A center at the address of one that ended is
/// a new one.
@Suite struct CenterLineTests {
    @Test func eachCenterIsIntroducedOnceAndNamedOnItsEvents() {
        let events = probeEvents([
            // "n" on c0, the first center seen; a wildcard observer on c1.
            "A 1 100 c0 0 0 f1 0 fa 12 12 S 6e e100000000000000", "a 1 101 0 0",
            "A 1 110 c1 0 0 f2 0 fa 14 14 N", "a 1 111 0 0",
            "P 1 120 c0 0 0 fa 20 20 S 6e e100000000000000", "D 1 121 aaa f1 0", "p 1 122",
            "P 1 130 c1 0 0 fa 20 20 S 6e e100000000000000", "D 1 131 bbb f2 0", "p 1 132",
            // c1 ends; a new center at its address is another center.
            "E 1 200 c1",
            "A 1 210 c1 0 0 f3 0 fa 12 12 S 6e e100000000000000", "a 1 211 0 0",
            "P 1 220 c1 0 0 fa 20 20 S 6e e100000000000000", "D 1 221 ccc f3 0", "p 1 222",
        ])
        let centers = events.compactMap { if case .center(let c) = $0 { c } else { nil } }
        #expect(centers.map(\.index) == [1, 2])
        #expect(centers.map(\.label) == ["NotificationCenter 0xc1", "NotificationCenter 0xc1"])
        var registered: [UInt32?] = []
        var posted: [UInt32?] = []
        for event in events {
            if case .registered(let registration) = event { registered.append(registration.center) }
            if case .posted(let post) = event { posted.append(post.center) }
        }
        #expect(registered == [nil, 1, 2])
        #expect(posted == [nil, 1, 2])
        // A center line comes before the first event that names its index.
        let firstNaming = events.firstIndex { if case .registered(let r) = $0 { r.center == 1 } else { false } }
        let introduced = events.firstIndex { if case .center(let c) = $0 { c.index == 1 } else { false } }
        #expect(introduced != nil && firstNaming != nil && introduced! < firstNaming!)
    }
}
