import NotifyTestSupport
import NotifyWire
import Testing

@testable import NotifyModel

/// R9's near-name lookups: the index finds every name comparing with all of them would, so a typo
/// among thousands of names is reported as among a few.
struct NearNameIndexTests {
    @Test("every filed name near a query is among its candidates, for distances 0 to 3")
    func candidatesIncludeEveryNearName() {
        var generator = SystemRandomNumberGenerator()
        let words = ["k", "NS", "ab", "Ba", "Notification", "reachability", "x", "é", "did", "Change"]
        func randomName() -> String {
            (0..<Int.random(in: 0...5, using: &generator)).map { _ in words.randomElement(using: &generator)! }
                .joined()
        }
        for distance in 0...3 {
            let names = (0..<400).map { _ in randomName() }
            var index = NearNameIndex(maximumDistance: distance)
            for (slot, name) in names.enumerated() { index.file(name, slot: slot + 1) }
            for _ in 0..<200 {
                let query = randomName()
                let found = index.candidates(near: query)
                #expect(found?.complete == true)
                let candidates = Set(found?.slots ?? [])
                for (slot, name) in names.enumerated()
                where NameSimilarity.nearness(query, name, maximumDistance: distance) != nil {
                    #expect(candidates.contains(slot + 1), "\(query) near \(name) at distance \(distance)")
                }
            }
        }
    }

    @Test("R9 among thousands of names: a typo of a name registered before or after it is reported, naming it")
    func typoAmongManyNames() throws {
        var s = TraceScript()
        for id in 1...3_000 { s.register(UInt64(id), "Feature\(id)DidUpdateState") }
        s.post("Feature1234DidUpdatState", matched: 0)
        s.post("OrderDidShipNotification", matched: 0)
        s.register(4_000, "OrderDidShip")
        for id in 5_000..<8_000 { s.register(UInt64(id), "Screen\(id)WillAppear") }
        let state = s.fold()
        let findings = state.open(.unheardPost)
        #expect(findings.count == 2)
        let typo = try #require(findings.first { $0.key.subject == .name("Feature1234DidUpdatState") })
        #expect(typo.evidence.nearestName == "Feature1234DidUpdateState")
        let suffixed = try #require(findings.first { $0.key.subject == .name("OrderDidShipNotification") })
        #expect(suffixed.evidence.nearestName == "OrderDidShip")
        #expect(state.loss.nearNameLookupsCut == 0)
    }
}
