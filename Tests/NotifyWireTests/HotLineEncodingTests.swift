import NotifyWire
import Testing

/// Posts, deliveries, registrations and queue lines are written through a pointer into scratch
/// memory sized from their strings: whatever the strings and numbers, the bytes are the same as
/// the rest of the encoder writes, and nothing is written past the room reserved.
@Suite struct HotLineEncodingTests {
    static let names: [String] = [
        "cartDidChange",
        "say \"hi\" \\ back",
        String(repeating: "\u{1}", count: 700),  // every byte escaped to six
        String(repeating: "n", count: 5_000),  // beyond what the stack scratch holds
        "購物車已更改 🛒",
        "",
    ]

    /// `name` quoted and escaped as a type line (written by the other path) spells it.
    private func quoted(_ name: String) -> String {
        let line = TraceEncoder.line(for: .type(TraceType(id: 1, name: name)))
        return String(line.dropFirst(#"{"k":"type","id":1,"name":"#.count).dropLast())
    }

    @Test("a post line with any name and extreme numbers is spelled field by field", arguments: names)
    func post(name: String) {
        let max = UInt64.max
        let line = TraceEncoder.line(
            for: .posted(
                TracePost(
                    seq: max, timestamp: max, thread: max, postID: max, name: name, object: max, hasUserInfo: true,
                    matched: Int.max, depth: Int.min, parentPostID: max, callsite: max)))
        let expected =
            #"{"k":"post","seq":\#(max),"t":\#(max),"thread":\#(max),"postID":\#(max),"name":\#(quoted(name)),"#
            + #""object":\#(max),"hasUserInfo":true,"matched":\#(Int.max),"depth":\#(Int.min),"#
            + #""parentPostID":\#(max),"callsite":\#(max)}"#
        #expect(line == expected)
    }

    @Test("a delivery line with any name and small numbers is spelled field by field", arguments: names)
    func delivery(name: String) {
        let line = TraceEncoder.line(
            for: .delivered(
                TraceDelivery(
                    seq: 0, timestamp: 9, thread: 10, postID: 99, registration: 100, name: name, postingThread: 1,
                    target: .dispatchQueue, start: 999, duration: 1_000, wait: 0, depth: -1)))
        let expected =
            #"{"k":"deliver","seq":0,"t":9,"thread":10,"postID":99,"registration":100,"name":\#(quoted(name)),"#
            + #""postingThread":1,"target":"dispatch-queue","start":999,"duration":1000,"wait":0,"depth":-1}"#
        #expect(line == expected)
    }

    @Test("a registration line with any name and label, or none, is spelled field by field", arguments: names)
    func registration(name: String) {
        let line = TraceEncoder.line(
            for: .registered(
                TraceRegistration(
                    seq: 12_345_678_901, timestamp: 10_000_000_000_000_000_000, thread: 3, id: 7, name: name,
                    kind: .block, observer: nil, object: 5, target: .operationQueue, targetLabel: name, callsite: 2,
                    preexisting: true, capturesObserverStrongly: false, mainThreadOnly: true, registeredAt: nil)))
        let expected =
            #"{"k":"register","seq":12345678901,"t":10000000000000000000,"thread":3,"id":7,"#
            + #""name":\#(quoted(name)),"kind":"block","observer":null,"object":5,"target":"operation-queue","#
            + #""targetLabel":\#(quoted(name)),"callsite":2,"preexisting":true,"capturesObserverStrongly":false,"#
            + #""mainThreadOnly":true,"registeredAt":null}"#
        #expect(line == expected)
    }

    @Test("a queue line with any name, or none, is spelled field by field", arguments: names)
    func queue(name: String) {
        let line = TraceEncoder.line(
            for: .queue(
                TraceQueueActivity(
                    seq: 1, timestamp: 2, thread: 3, queueID: 4, action: .coalesced, name: name, style: nil,
                    count: 10, pending: 99_999)))
        let expected =
            #"{"k":"queue","seq":1,"t":2,"thread":3,"queueID":4,"action":"coalesced","name":\#(quoted(name)),"#
            + #""style":null,"count":10,"pending":99999}"#
        #expect(line == expected)
    }

    @Test("a character to escape is found at any place in a name, among plain and non-ASCII bytes")
    func escapeAtEveryPlace() {
        for special in ["\"", "\\", "\n", "\u{1F}", "\u{0}"] {
            for place in 0..<24 {
                for filler in ["a", "é", " "] {
                    var characters = Array(repeating: filler, count: 23)
                    characters.insert(special, at: place)
                    let name = characters.joined()
                    let line = TraceEncoder.line(
                        for: .posted(
                            TracePost(
                                seq: 1, timestamp: 2, thread: 3, postID: 4, name: name, object: nil,
                                hasUserInfo: false, matched: 0, depth: 1, parentPostID: 0, callsite: 5)))
                    #expect(line.contains(#""name":\#(quoted(name)),"#), "\(place) \(filler)")
                }
            }
        }
    }

    @Test("lines appended one after another keep every earlier byte")
    func appendsAfterEarlierLines() {
        var bytes: [UInt8] = []
        var expected = ""
        for (index, name) in Self.names.enumerated() {
            let post = TraceEvent.posted(
                TracePost(
                    seq: UInt64(index), timestamp: 1, thread: 1, postID: 1, name: name, object: nil,
                    hasUserInfo: false, matched: 0, depth: 1, parentPostID: 0, callsite: 1))
            TraceEncoder.encode(post, into: &bytes)
            expected += TraceEncoder.line(for: post) + "\n"
        }
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }
}
