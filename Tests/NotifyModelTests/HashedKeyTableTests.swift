import Testing

@testable import NotifyModel

/// The near-name index's key table: agrees with a dictionary on the keys it holds, through growth.
struct HashedKeyTableTests {
    @Test("values set and replaced read back as a dictionary's do, through growth from the smallest size")
    func agreesWithDictionary() {
        var generator = SystemRandomNumberGenerator()
        var table = HashedKeyTable()
        var expected: [UInt64: Int32] = [:]
        // Keys with distinct high halves (the half a table keeps), and the edge values.
        var highHalves = Set<UInt64>([0, 0xffff_ffff])
        while highHalves.count < 20_002 { highHalves.insert(UInt64.random(in: 2..<0xffff_ffff, using: &generator)) }
        let keys = highHalves.map { $0 << 32 | UInt64.random(in: 0...0xffff_ffff, using: &generator) }
        for (index, key) in keys.enumerated() {
            let value = Int32(truncatingIfNeeded: index)
            #expect(table.update(value, forKey: key) == expected.updateValue(value, forKey: key))
        }
        for key in keys.prefix(500) {
            #expect(table.update(-1, forKey: key) == expected.updateValue(-1, forKey: key))
        }
        #expect(table.count == expected.count)
        for (key, value) in expected { #expect(table[key] == value) }
    }

    @Test("a key whose kept bits are all zero is held apart from the empty slot; keys alike in them are one")
    func keptBits() {
        var table = HashedKeyTable(capacity: 4)
        table.update(7, forKey: 0x0000_0000_1234_5678)
        #expect(table[0x0000_0000_1234_5678] == 7)
        #expect(table.count == 1)
        #expect(table.update(8, forKey: 0x0000_0002_0000_0001) == nil)
        #expect(table.update(9, forKey: 0x0000_0002_ffff_ffff) == 8)
        #expect(table[0x0000_0002_0000_0000] == 9)
        #expect(table[0x0000_0003_0000_0000] == nil)
    }
}
