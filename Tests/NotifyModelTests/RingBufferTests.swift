import NotifyModel
import Testing

@Suite("Ring buffer")
struct RingBufferTests {
    @Test(
        "a batch keeps the same newest elements and overwritten count as appending one by one",
        arguments: [(3, 2), (3, 3), (3, 10), (5, 12), (4, 4), (1, 0)])
    func batchEqualsOneByOne(capacity: Int, batch: Int) {
        var single = RingBuffer<Int>(capacity: capacity)
        var batched = RingBuffer<Int>(capacity: capacity)
        let first = [1, 2]
        let second = Array(3..<(3 + batch))
        for element in first + second { single.append(element) }
        batched.append(contentsOf: first)
        batched.append(contentsOf: second)
        #expect(batched.elements == single.elements)
        #expect(batched.overwritten == single.overwritten)
        #expect(batched.last == single.last)
        batched.append(99)
        single.append(99)
        #expect(batched == single, "and both go on the same way")
    }
}
