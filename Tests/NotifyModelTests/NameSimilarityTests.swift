import Testing

@testable import NotifyModel

/// Near names (R9, R10): the bounded edit distance gives the full distance's answers, and long
/// names cost a linear pass, not a table of their lengths' product.
struct NameSimilarityTests {
    static func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    @Test("the banded distance equals the full table's whenever it is within the limit, and says farther otherwise")
    func bandedDistanceAgreesWithTheFullTable() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcAB".unicodeScalars)
        for _ in 0..<2_000 {
            let a = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)!
            }
            let b = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)!
            }
            let full = NameSimilarity.distance(a, b)
            for limit in 0...4 {
                let banded = NameSimilarity.distance(a, b, atMost: limit)
                #expect(
                    banded == (full <= limit ? full : nil),
                    "\(a) \(b) limit \(limit): \(String(describing: banded)) vs \(full)")
            }
        }
    }

    @Test("typos are near as before: one edit, case, affixes, a prefix word")
    func nearNamesAsBefore() {
        #expect(NameSimilarity.nearness("userDidLogn", "userDidLogin", maximumDistance: 2) == 1)
        #expect(NameSimilarity.nearness("CartDidChange", "cartdidchange", maximumDistance: 2) == 3)
        #expect(
            NameSimilarity.nearness(
                "kNetworkReachabilityChangedNotification", "kReachabilityChangedNotification", maximumDistance: 2)
                != nil)
        #expect(NameSimilarity.nearness("cacheFlushed", "userDidLogin", maximumDistance: 2) == nil)
    }

    @Test("names over the compared length are near only when equal ignoring case")
    func longNamesAreComparedByCaseOnly() {
        let long = String(repeating: "Session", count: 1_500)
        let typo = String(long.dropLast()) + "x"
        #expect(NameSimilarity.nearness(long, typo, maximumDistance: 2) == nil, "10 KB names: no edit-distance table")
        let shouted = long.uppercased()
        #expect(
            NameSimilarity.nearness(long, shouted, maximumDistance: 2)
                == NameSimilarity.maximumReportedDistance + 1, "equal ignoring case; its distance reported as capped")
    }
}
