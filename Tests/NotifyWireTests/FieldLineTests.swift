import NotifyWire
import Testing

/// The hot lines written from their fields are the general encoder's lines, and numbers are
/// written in decimal exactly.
@Suite struct FieldLineTests {
    static let names = ["Cart.changed", "", "quote \" back \\ newline \n tab \t é ✓", "NotifyDemo.CartTotalChanged"]
    static let numbers: [UInt64] =
        [0, 1, 9, 10, 11, 99, 100, 101, 999, 1_000, 65_535, 1_000_000_007, 31_200_541_188_965, .max, .max - 1]
        + (1...19).flatMap { power -> [UInt64] in
            let value = (0..<power).reduce(UInt64(1)) { result, _ in result * 10 }
            return [value - 1, value, value + 1]
        }

    /// What `write` writes at the start of room for a hot line with a name of `nameBytes`.
    static func written(nameBytes: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) -> [UInt8] {
        var room = [UInt8](repeating: 0, count: TraceEncoder.hotLineBound(quotedNameBytes: nameBytes))
        let count = room.withUnsafeMutableBufferPointer { write($0.baseAddress!) }
        return Array(room[..<count])
    }

    static func quoted(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        TraceEncoder.appendQuoted(name, into: &bytes)
        return bytes
    }

    @Test("a posted line from its fields is the encoder's, for every name, number, object and message kind")
    func posted() {
        for name in Self.names {
            for number in Self.numbers {
                for message in [nil] + TraceMessageKind.allCases.map(Optional.some) {
                    let post = TracePost(
                        seq: number, timestamp: number, thread: 3, postID: number, name: name,
                        object: number.isMultiple(of: 2) ? nil : number, hasUserInfo: number.isMultiple(of: 3),
                        matched: Int(truncatingIfNeeded: number % 1_000), depth: 2, parentPostID: number, callsite: 7,
                        message: message)
                    var general: [UInt8] = []
                    TraceEncoder.encode(.posted(post), into: &general)
                    let fields = Self.quoted(name).withUnsafeBufferPointer { quoted in
                        Self.written(nameBytes: quoted.count) { start in
                            TraceEncoder.writePosted(
                                seq: post.seq, timestamp: post.timestamp, thread: post.thread, postID: post.postID,
                                quotedName: quoted, object: post.object, hasUserInfo: post.hasUserInfo,
                                matched: post.matched, depth: post.depth, parentPostID: post.parentPostID,
                                callsite: post.callsite, message: post.message, to: start)
                        }
                    }
                    #expect(fields == general)
                    #expect(String(decoding: general, as: UTF8.self).contains(#""postID":\#(number),"#))
                    if let message {
                        #expect(
                            String(decoding: general, as: UTF8.self).hasSuffix(
                                #","message":"\#(message.rawValue)"}"# + "\n"))
                    }
                }
            }
        }
    }

    @Test("a delivered line from its fields is the encoder's, for every target")
    func delivered() {
        for name in Self.names {
            for number in Self.numbers {
                for target in TraceTargetKind.allCases {
                    let delivery = TraceDelivery(
                        seq: number, timestamp: number, thread: 4, postID: number, registration: number, name: name,
                        postingThread: 5, target: target, start: number, duration: number / 3, wait: number / 7,
                        depth: 1)
                    var general: [UInt8] = []
                    TraceEncoder.encode(.delivered(delivery), into: &general)
                    let fields = Self.quoted(name).withUnsafeBufferPointer { quoted in
                        Self.written(nameBytes: quoted.count) { start in
                            TraceEncoder.writeDelivered(
                                seq: delivery.seq, timestamp: delivery.timestamp, thread: delivery.thread,
                                postID: delivery.postID, registration: delivery.registration, quotedName: quoted,
                                postingThread: delivery.postingThread, target: delivery.target,
                                start: delivery.start, duration: delivery.duration, wait: delivery.wait,
                                depth: delivery.depth, to: start)
                        }
                    }
                    #expect(fields == general)
                    #expect(String(decoding: general, as: UTF8.self).contains(#""start":\#(number),"#))
                    #expect(String(decoding: general, as: UTF8.self).contains(#","target":"\#(target.rawValue)","#))
                }
            }
        }
    }

    @Test("an enqueued line from its fields is the encoder's")
    func enqueued() {
        for number in Self.numbers {
            for dropped in [false, true] {
                let enqueue = TraceMessageEnqueue(
                    seq: number, timestamp: number, thread: 6, postID: number, registration: 9,
                    pending: Int(truncatingIfNeeded: number % 100_000), droppedOldest: dropped)
                var general: [UInt8] = []
                TraceEncoder.encode(.enqueued(enqueue), into: &general)
                let fields = Self.written(nameBytes: 0) { start in
                    TraceEncoder.writeEnqueued(
                        seq: enqueue.seq, timestamp: enqueue.timestamp, thread: enqueue.thread,
                        postID: enqueue.postID, registration: enqueue.registration, pending: enqueue.pending,
                        droppedOldest: enqueue.droppedOldest, to: start)
                }
                #expect(fields == general)
            }
        }
    }
}
