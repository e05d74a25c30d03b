import NotifySystem
import Testing

@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("a lane's stream depends only on the seed and the lane")
    func splitMixIsStable() {
        var rng = SplitMix64(seed: 0)
        // Reference values of SplitMix64 for seed 0 (Vigna's splitmix64.c).
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        let root = SplitMix64(seed: 9)
        var a = root.fork(1)
        var b = root.fork(1)
        var c = root.fork(2)
        let fromA = (0..<8).map { _ in a.below(100) }
        #expect(fromA == (0..<8).map { _ in b.below(100) })
        #expect(fromA != (0..<8).map { _ in c.below(100) })
        #expect(fromA.allSatisfy { (0..<100).contains($0) })
    }
}
