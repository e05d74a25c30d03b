import NotifyWire

/// One event of every kind with the exact line it encodes to: the golden lines that pin the wire
/// format. Each line also appears, verbatim, in Documentation.docc/WireFormat.md.
enum TraceSamples {
    static let header = TraceHeader(
        pid: 4242, process: "notify-demo", center: "default", clockMono: 1_000_000_000,
        clockWall: 1_732_243_200_000_000_000, producer: "NotifyKit 0.1.0")

    static func event(_ kind: TraceLineKind) -> TraceEvent {
        switch kind {
        case .header:
            .header(header)
        case .thread:
            .thread(
                TraceThread(
                    seq: 1, timestamp: 1_000_000_500, id: 1, systemID: 4242, name: "notify-demo",
                    isMain: true))
        case .type:
            .type(TraceType(id: 3, name: "Demo.CartScreen"))
        case .object:
            .object(TraceObject(id: 7, type: 3, address: 0x7f3a_5c00_e0a0))
        case .callsite:
            .callsite(TraceCallsite(id: 2, file: "Demo/Cart.swift", line: 42))
        case .registered:
            .registered(
                TraceRegistration(
                    seq: 2, timestamp: 1_000_001_000, thread: 1, id: 4, name: "cartDidChange", kind: .ownerBound,
                    observer: 7, object: nil, target: .posting, targetLabel: nil, callsite: 2, preexisting: false,
                    capturesObserverStrongly: false))
        case .posted:
            .posted(
                TracePost(
                    seq: 3, timestamp: 1_000_002_000, thread: 1, postID: 11, name: "cartDidChange", object: nil,
                    hasUserInfo: true, matched: 1, depth: 1, parentPostID: 0, callsite: 5))
        case .delivered:
            .delivered(
                TraceDelivery(
                    seq: 4, timestamp: 1_000_003_500, thread: 1, postID: 11, registration: 4, name: "cartDidChange",
                    postingThread: 1, target: .posting, start: 1_000_002_100, duration: 1_400, wait: 0, depth: 1))
        case .removed:
            .removed(
                TraceRemoval(
                    seq: 5, timestamp: 1_000_004_000, thread: 1, registration: 4,
                    reason: .tokenCancelled, callsite: 9))
        case .tokenDropped:
            .tokenDropped(TraceTokenDrop(seq: 6, timestamp: 1_000_005_000, thread: 1, registration: 6))
        case .removeMissed:
            .removeMissed(
                TraceMissedRemoval(
                    seq: 7, timestamp: 1_000_006_000, thread: 1, observer: 7,
                    name: "cartDidChange", callsite: 9))
        case .queue:
            .queue(
                TraceQueueActivity(
                    seq: 8, timestamp: 1_000_007_000, thread: 1, queueID: 1, action: .coalesced,
                    name: "downloadProgress", style: nil, count: 2, pending: 1))
        case .checkpoint:
            .checkpoint(
                TraceCheckpoint(
                    seq: 9, timestamp: 1_000_008_000, thread: 1, label: "cart screen closed",
                    callsite: 2))
        case .tick:
            .tick(TraceTick(seq: 10, timestamp: 1_000_500_000))
        case .enqueued:
            .enqueued(
                TraceMessageEnqueue(
                    seq: 11, timestamp: 1_000_600_000, thread: 1, postID: 12, registration: 8, pending: 3,
                    droppedOldest: false))
        case .history:
            .history(
                TraceHistory(
                    timestamp: 1_000_010_000, thread: 1, name: "cartDidChange", posts: 552, deliveries: 1_104,
                    unheard: 3))
        case .siteCount:
            .siteCount(TraceSiteCount(timestamp: 999_500_000, name: "cartDidChange", callsite: 2, live: 3))
        case .objectDead:
            .objectDead(
                TraceObjectDeath(
                    seq: 12, timestamp: 1_000_700_000, thread: 1, registration: 9, object: 8, aliveAt: 1_000_600_000))
        case .center:
            .center(TraceCenter(index: 2, label: "sync"))
        case .merged:
            .merged(
                TraceQueueMerge(
                    seq: 14, timestamp: 1_000_800_000, thread: 1, queueID: 1, postID: 13, callsite: 10, count: 2,
                    enqueuedAt: 1_000_750_000))
        case .gap:
            .gap(TraceGap(seq: 130, timestamp: 1_000_900_000, count: 120, reason: .bufferFull))
        case .end:
            .end(TraceEnd(seq: 131, timestamp: 2_000_000_000, reason: .processExit))
        }
    }

    static func line(_ kind: TraceLineKind) -> String {
        switch kind {
        case .header:
            #"{"k":"header","format":"notifytop-trace","version":"1.5","pid":4242,"process":"notify-demo","center":"default","clockMono":1000000000,"clockWall":1732243200000000000,"producer":"NotifyKit 0.1.0"}"#
        case .thread:
            #"{"k":"thread","seq":1,"t":1000000500,"id":1,"systemID":4242,"name":"notify-demo","isMain":true}"#
        case .type:
            #"{"k":"type","id":3,"name":"Demo.CartScreen"}"#
        case .object:
            #"{"k":"obj","id":7,"type":3,"addr":"0x7f3a5c00e0a0"}"#
        case .callsite:
            #"{"k":"site","id":2,"file":"Demo/Cart.swift","line":42}"#
        case .registered:
            #"{"k":"register","seq":2,"t":1000001000,"thread":1,"id":4,"name":"cartDidChange","kind":"owner","observer":7,"object":null,"target":"posting","targetLabel":null,"callsite":2,"preexisting":false,"capturesObserverStrongly":false,"mainThreadOnly":false,"registeredAt":null}"#
        case .posted:
            #"{"k":"post","seq":3,"t":1000002000,"thread":1,"postID":11,"name":"cartDidChange","object":null,"hasUserInfo":true,"matched":1,"depth":1,"parentPostID":0,"callsite":5}"#
        case .delivered:
            #"{"k":"deliver","seq":4,"t":1000003500,"thread":1,"postID":11,"registration":4,"name":"cartDidChange","postingThread":1,"target":"posting","start":1000002100,"duration":1400,"wait":0,"depth":1}"#
        case .removed:
            #"{"k":"remove","seq":5,"t":1000004000,"thread":1,"registration":4,"reason":"token-cancelled","callsite":9}"#
        case .tokenDropped:
            #"{"k":"token-dropped","seq":6,"t":1000005000,"thread":1,"registration":6}"#
        case .removeMissed:
            #"{"k":"remove-missed","seq":7,"t":1000006000,"thread":1,"observer":7,"name":"cartDidChange","callsite":9}"#
        case .queue:
            #"{"k":"queue","seq":8,"t":1000007000,"thread":1,"queueID":1,"action":"coalesced","name":"downloadProgress","style":null,"count":2,"pending":1}"#
        case .checkpoint:
            #"{"k":"checkpoint","seq":9,"t":1000008000,"thread":1,"label":"cart screen closed","callsite":2}"#
        case .tick:
            #"{"k":"tick","seq":10,"t":1000500000}"#
        case .enqueued:
            #"{"k":"enqueue","seq":11,"t":1000600000,"thread":1,"postID":12,"registration":8,"pending":3,"droppedOldest":false}"#
        case .history:
            #"{"k":"history","t":1000010000,"thread":1,"name":"cartDidChange","posts":552,"deliveries":1104,"unheard":3}"#
        case .siteCount:
            #"{"k":"site-count","t":999500000,"name":"cartDidChange","callsite":2,"live":3}"#
        case .objectDead:
            #"{"k":"object-dead","seq":12,"t":1000700000,"thread":1,"registration":9,"object":8,"aliveAt":1000600000}"#
        case .center:
            #"{"k":"center","center":2,"label":"sync"}"#
        case .merged:
            #"{"k":"merge","seq":14,"t":1000800000,"thread":1,"queueID":1,"postID":13,"callsite":10,"count":2,"enqueuedAt":1000750000}"#
        case .gap:
            #"{"k":"gap","seq":130,"t":1000900000,"count":120,"reason":"buffer-full"}"#
        case .end:
            #"{"k":"end","seq":131,"t":2000000000,"reason":"process-exit"}"#
        }
    }

    /// Every sample, header first, as one stream.
    static var stream: [TraceEvent] { TraceLineKind.allCases.map(event) }

    /// The bytes of ``stream``.
    static var streamBytes: [UInt8] {
        var bytes: [UInt8] = []
        TraceEncoder.encode(stream, into: &bytes)
        return bytes
    }
}
