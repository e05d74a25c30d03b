import Testing

@testable import NotifyWire

/// Format 1.5's centers: a header lists the centers a stream carries when there are several, and
/// its `register` and `post` lines name theirs by index. A one-center stream writes neither.
@Suite("Several centers in one stream on the wire (format 1.5)")
struct CenterLineTests {
    private static let header = TraceHeader(
        pid: 7, process: "app", center: "default", clockMono: 1, clockWall: 2, producer: "NotifyKit 0.1.0",
        centers: ["default", "sync", "naïve \"ünïcode\" ✓"])

    private static func registration(center: UInt32?) -> TraceRegistration {
        TraceRegistration(
            seq: 3, timestamp: 4, thread: 1, id: 9, name: "Sync", kind: .block, observer: nil, object: nil,
            target: .posting, targetLabel: nil, callsite: 2, preexisting: false, capturesObserverStrongly: false,
            deliveries: nil, center: center)
    }

    private static func post(center: UInt32?, message: TraceMessageKind? = nil) -> TracePost {
        TracePost(
            seq: 5, timestamp: 6, thread: 1, postID: 11, name: "Sync", object: nil, hasUserInfo: false, matched: 1,
            depth: 1, parentPostID: 0, callsite: 2, message: message, center: center)
    }

    @Test("a header's centers, a registration's and a post's center round-trip, both paths reading the lines")
    func roundTrip() {
        let headerLine = TraceEncoder.line(for: .header(Self.header))
        #expect(headerLine.hasSuffix(#","centers":["default","sync","naïve \"ünïcode\" ✓"]}"#))
        #expect(decodeOne(headerLine) == .event(.header(Self.header)))

        let events: [TraceEvent] = [
            .registered(Self.registration(center: 0)), .registered(Self.registration(center: .max)),
            .posted(Self.post(center: 1)), .posted(Self.post(center: 0, message: .async)),
        ]
        for event in events {
            let line = TraceEncoder.line(for: event)
            #expect(line.contains(#","center":"#), "\(line)")
            #expect(bothPathEvents(line) == (event, event), "\(line)")
        }
    }

    @Test("a one-center stream writes no centers and no center, and reads back without them")
    func oneCenter() {
        var header = Self.header
        header.centers = nil
        let events: [TraceEvent] = [
            .header(header), .registered(Self.registration(center: nil)), .posted(Self.post(center: nil)),
        ]
        for event in events {
            let line = TraceEncoder.line(for: event)
            #expect(!line.contains(#""center":"#) || event == .header(header), "\(line)")
            #expect(!line.contains(#""centers""#), "\(line)")
            #expect(decodeOne(line) == .event(event), "\(line)")
        }
    }

    @Test("the exporter's post writer puts the center where the encoder does")
    func hotWriter() {
        let post = Self.post(center: 2)
        var quoted: [UInt8] = []
        TraceEncoder.appendQuoted(post.name, into: &quoted)
        let bound = TraceEncoder.hotLineBound(quotedNameBytes: quoted.count)
        let written = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            count = quoted.withUnsafeBufferPointer { name in
                TraceEncoder.writePosted(
                    seq: post.seq, timestamp: post.timestamp, thread: post.thread, postID: post.postID,
                    quotedName: name, object: post.object, hasUserInfo: post.hasUserInfo, matched: post.matched,
                    depth: post.depth, parentPostID: post.parentPostID, callsite: post.callsite,
                    message: post.message, center: post.center, to: buffer.baseAddress!)
            }
        }
        var encoded: [UInt8] = []
        TraceEncoder.encode(.posted(post), into: &encoded)
        #expect(written == encoded)
    }

    @Test("256 centers are read; 257 are one line's error, and the next line still decodes")
    func boundedCenters() throws {
        var header = Self.header
        header.centers = (0..<TraceHeader.maximumCenters).map { "c\($0)" }
        let most = TraceEncoder.line(for: .header(header))
        #expect(decodeOne(most) == .event(.header(header)))

        header.centers?.append("c256")
        let tooMany = TraceEncoder.line(for: .header(header))
        let outputs = decodeAll(tooMany + "\n" + #"{"k":"tick","seq":2,"t":2}"# + "\n")
        #expect(outputs.count == 2)
        guard case .error(let error) = outputs.first else {
            Issue.record("accepted 257 centers")
            return
        }
        #expect(error.description.contains("centers"))
        #expect(error.description.contains("256"))
        #expect(!error.description.contains("\n"))
        #expect(outputs.last == .event(.tick(TraceTick(seq: 2, timestamp: 2))))
    }

    @Test(
        "hostile centers and center values are one line's error",
        arguments: [
            #"{"k":"header","format":"notifytop-trace","version":"1.5","pid":1,"process":"p","center":"c","clockMono":1,"clockWall":1,"producer":"t","centers":"c"}"#,
            #"{"k":"header","format":"notifytop-trace","version":"1.5","pid":1,"process":"p","center":"c","clockMono":1,"clockWall":1,"producer":"t","centers":["a",1]}"#,
            #"{"k":"header","format":"notifytop-trace","version":"1.5","pid":1,"process":"p","center":"c","clockMono":1,"clockWall":1,"producer":"t","centers":{"a":"b"}}"#,
            #"{"k":"header","format":"notifytop-trace","version":"1.5","pid":1,"process":"p","center":"c","clockMono":1,"clockWall":1,"producer":"t","centers":["\ud800"]}"#,
            #"{"k":"post","seq":5,"t":6,"thread":1,"postID":11,"name":"Sync","object":null,"hasUserInfo":false,"matched":1,"depth":1,"parentPostID":0,"callsite":2,"center":4294967296}"#,
            #"{"k":"post","seq":5,"t":6,"thread":1,"postID":11,"name":"Sync","object":null,"hasUserInfo":false,"matched":1,"depth":1,"parentPostID":0,"callsite":2,"center":18446744073709551615}"#,
            #"{"k":"post","seq":5,"t":6,"thread":1,"postID":11,"name":"Sync","object":null,"hasUserInfo":false,"matched":1,"depth":1,"parentPostID":0,"callsite":2,"center":-1}"#,
            #"{"k":"register","seq":3,"t":4,"thread":1,"id":9,"name":"Sync","kind":"block","observer":null,"object":null,"target":"posting","targetLabel":null,"callsite":2,"preexisting":false,"capturesObserverStrongly":false,"mainThreadOnly":false,"registeredAt":null,"center":"1"}"#,
        ])
    func hostileValues(line: String) {
        let outputs = decodeAll(line + "\n" + #"{"k":"tick","seq":2,"t":2}"# + "\n")
        #expect(outputs.count == 2)
        guard case .error(let error) = outputs.first else {
            Issue.record("accepted: \(line)")
            return
        }
        #expect(!error.description.contains("\n"))
        #expect(outputs.last == .event(.tick(TraceTick(seq: 2, timestamp: 2))))
    }

    @Test("a center on a 1.4-style line (no mainThreadOnly, registeredAt or callsite fields) reads without complaint")
    func olderLines() {
        let registration =
            #"{"k":"register","seq":3,"t":4,"thread":1,"id":9,"name":"Sync","kind":"block","observer":null,"object":null,"target":"posting","targetLabel":null,"callsite":2,"preexisting":false,"capturesObserverStrongly":false,"center":1}"#
        let expected = Self.registration(center: 1)
        #expect(decodeOne(registration) == .event(.registered(expected)))
        // Any field order: the general path reads it anyway.
        let post =
            #"{"center":4294967295,"k":"post","seq":5,"t":6,"thread":1,"postID":11,"name":"Sync","object":null,"hasUserInfo":false,"matched":1,"depth":1,"parentPostID":0,"callsite":2}"#
        #expect(decodeOne(post) == .event(.posted(Self.post(center: .max))))
        let header =
            #"{"k":"header","format":"notifytop-trace","version":"1.4","pid":1,"process":"p","center":"c","clockMono":1,"clockWall":1,"producer":"t","centers":[]}"#
        guard case .event(.header(let read)) = decodeOne(header) else {
            Issue.record("refused an empty centers list")
            return
        }
        #expect(read.centers == [])
    }
}
