import NotifySystem
import NotifyTestSupport
import NotifyWire
import Testing

@testable import NotifyModel

/// The cascade finds a kept post by id whatever ids the stream uses: sparse blocks, ids that
/// share low bits, repeats, and ids the ring has let go of.
struct PostLookupTests {
    @Test("Two kept posts whose ids share their low bits both keep their deliveries")
    func collidingIdsBothLink() {
        var index = PostHistory(capacity: 4)
        // 1 and 1 + 8·k shared one slot of the old direct-mapped table of 8.
        let ids: [UInt64] = [1, 9, 17, 25]
        for (seq, id) in ids.enumerated() { index.append(post(id, seq: UInt64(seq))) }
        for id in ids { _ = index.delivered(delivery(to: id)) }
        for id in ids {
            let ordinal = index.postOrdinal(id)
            #expect(ordinal != nil, "post \(id) is found")
            if let ordinal, let kept = index.post(at: ordinal) {
                #expect(kept.deliveries == 1, "post \(id) has its delivery")
                #expect(index.deliveries(of: kept).complete)
            }
        }
    }

    @Test("Against a plain dictionary of the ring: random ids, repeats and push-outs, every lookup agrees")
    func agreesWithReference() {
        var random = SplitMix64(seed: 7)
        for capacity in [1, 4, 64] {
            var index = PostHistory(capacity: capacity)
            var ring: [UInt64] = []  // ids by ordinal
            var used: [UInt64] = []
            for seq in 0..<5_000 {
                let id: UInt64
                switch random.next() % 4 {
                case 0 where !used.isEmpty: id = used[Int(random.next() % UInt64(used.count))]  // a repeat
                case 1: id = UInt64.max - random.next() % 16
                case 2: id = (random.next() % 64) << 6 | 1  // blocks of 64, low bits shared
                default: id = random.next() % 100_000 + 1
                }
                used.append(id)
                index.append(post(id, seq: UInt64(seq)))
                ring.append(id)
                let kept = ring.suffix(index.capacity)
                let keptStart = ring.count - kept.count
                for probe in used.suffix(32) + [id, 0, UInt64.max] {
                    let newest = kept.lastIndex(of: probe).map { keptStart + ($0 - kept.startIndex) }
                    let expected = probe == 0 ? nil : newest
                    #expect(index.postOrdinal(probe) == expected, "capacity \(capacity), id \(probe)")
                }
            }
        }
    }

    @Test("An id that finds no free slot within the probe limit takes its home, and the post there is forgotten")
    func fullNeighbourhoodForgetsOne() {
        var table = PostLookup(capacity: 64)
        let sharingHome = (1...UInt64(1 << 20)).lazy.filter { table.home($0) == table.home(1) }
        let ids = Array(sharingHome.prefix(PostLookup.maximumProbe + 1))
        #expect(ids.count == PostLookup.maximumProbe + 1)
        for (ordinal, id) in ids.enumerated() { table.insert(id, ordinal: ordinal) }
        #expect(table.ordinal(of: ids.last!) == ids.count - 1)
        #expect(table.ordinal(of: ids[0]) == nil)
        for (ordinal, id) in ids.enumerated().dropFirst().dropLast() { #expect(table.ordinal(of: id) == ordinal) }
    }

    private func post(_ id: UInt64, seq: UInt64) -> TracePost {
        TracePost(
            seq: seq, timestamp: seq, thread: 1, postID: id, name: "A", object: nil, hasUserInfo: false, matched: 1,
            depth: 1, parentPostID: 0, callsite: 0, message: nil, center: nil)
    }

    private func delivery(to postID: UInt64) -> TraceDelivery {
        TraceDelivery(
            seq: 0, timestamp: 10, thread: 1, postID: postID, registration: 1, name: "A", postingThread: 1,
            target: .posting, start: 5, duration: 5, wait: 0, depth: 1)
    }
}

extension PostHistory {
    /// Appends `post` as the fold does for a name of its own slot 1, chained to its name's newest.
    @discardableResult
    mutating func append(_ post: TracePost, previousOfName: Int = -1) -> Int {
        posted(post, nameSlot: 1, center: 0, previousOfName: previousOfName, threadIsMain: false, coalesced: 0)
    }
}
