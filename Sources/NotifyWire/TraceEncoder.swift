/// Writes ``TraceEvent``s as JSON Lines: one object per line, fields in a fixed order, `\n` after
/// each.
///
/// The encoder appends UTF-8 bytes straight into a caller-owned buffer, so an exporter can keep
/// one buffer, encode a batch, write it, and `removeAll(keepingCapacity: true)`: no Foundation,
/// no intermediate strings, no allocation once the buffer has grown. The output is exactly what
/// the *Wire format* article shows; golden tests pin it.
///
/// ```swift
/// var buffer: [UInt8] = []
/// buffer.reserveCapacity(64 * 1024)
/// TraceEncoder.encode(.end(TraceEnd(seq: 9, timestamp: 1_000, reason: .processExit)), into: &buffer)
/// // buffer holds {"k":"end","seq":9,"t":1000,"reason":"process-exit"}\n
/// ```
public enum TraceEncoder {
    /// Appends one line for `event`, newline included.
    ///
    /// - Complexity: O(length of the line).
    public static func encode(_ event: TraceEvent, into buffer: inout [UInt8]) {
        switch event {
        case .header(let header): encode(header, into: &buffer)
        case .thread(let thread): encode(thread, into: &buffer)
        case .type(let type):
            buffer.appendLiteral("{\"k\":\"type\",\"id\":")
            buffer.appendDecimal(type.id)
            buffer.appendLiteral(",\"name\":")
            buffer.appendJSONString(type.name)
        case .object(let object):
            buffer.appendLiteral("{\"k\":\"obj\",\"id\":")
            buffer.appendDecimal(object.id)
            buffer.appendLiteral(",\"type\":")
            buffer.appendDecimal(object.type)
            buffer.appendLiteral(",\"addr\":")
            buffer.appendHexString(object.address)
        case .callsite(let site):
            buffer.appendLiteral("{\"k\":\"site\",\"id\":")
            buffer.appendDecimal(site.id)
            buffer.appendLiteral(",\"file\":")
            buffer.appendJSONString(site.file)
            buffer.appendLiteral(",\"line\":")
            buffer.appendDecimal(UInt64(site.line))
        case .registered(let registration): encode(registration, into: &buffer)
        case .posted(let post): encode(post, into: &buffer)
        case .delivered(let delivery): encode(delivery, into: &buffer)
        case .removed(let removal):
            stamp("{\"k\":\"remove\",\"seq\":", removal.seq, removal.timestamp, removal.thread, into: &buffer)
            buffer.appendLiteral(",\"registration\":")
            buffer.appendDecimal(removal.registration)
            buffer.appendLiteral(",\"reason\":")
            buffer.appendJSONString(removal.reason.rawValue)
        case .tokenDropped(let drop):
            stamp("{\"k\":\"token-dropped\",\"seq\":", drop.seq, drop.timestamp, drop.thread, into: &buffer)
            buffer.appendLiteral(",\"registration\":")
            buffer.appendDecimal(drop.registration)
        case .removeMissed(let missed):
            stamp("{\"k\":\"remove-missed\",\"seq\":", missed.seq, missed.timestamp, missed.thread, into: &buffer)
            buffer.appendLiteral(",\"observer\":")
            buffer.appendDecimal(missed.observer)
            buffer.appendLiteral(",\"name\":")
            buffer.appendOptionalString(missed.name)
            buffer.appendLiteral(",\"callsite\":")
            buffer.appendDecimal(missed.callsite)
        case .queue(let activity): encode(activity, into: &buffer)
        case .checkpoint(let checkpoint):
            stamp("{\"k\":\"checkpoint\",\"seq\":", checkpoint.seq, checkpoint.timestamp, checkpoint.thread,
                  into: &buffer)
            buffer.appendLiteral(",\"label\":")
            buffer.appendJSONString(checkpoint.label)
            buffer.appendLiteral(",\"callsite\":")
            buffer.appendDecimal(checkpoint.callsite)
        case .gap(let gap):
            stamp("{\"k\":\"gap\",\"seq\":", gap.seq, gap.timestamp, nil, into: &buffer)
            buffer.appendLiteral(",\"count\":")
            buffer.appendDecimal(gap.count)
            buffer.appendLiteral(",\"reason\":")
            buffer.appendJSONString(gap.reason.rawValue)
        case .end(let end):
            stamp("{\"k\":\"end\",\"seq\":", end.seq, end.timestamp, nil, into: &buffer)
            buffer.appendLiteral(",\"reason\":")
            buffer.appendJSONString(end.reason.rawValue)
        case .tick(let tick):
            stamp("{\"k\":\"tick\",\"seq\":", tick.seq, tick.timestamp, nil, into: &buffer)
        case .unknown(let unknown):
            // Kept verbatim. A raw newline can only be JSON whitespace, so a space replaces it and
            // the line stays one line.
            buffer.append(contentsOf: unknown.line.utf8.lazy.map { $0 == 0x0A ? 0x20 : $0 })
            buffer.append(0x0A)
            return
        }
        buffer.appendLiteral("}\n")
    }

    /// Appends one line per event, in order.
    ///
    /// - Complexity: O(total length of the lines).
    public static func encode(_ events: some Sequence<TraceEvent>, into buffer: inout [UInt8]) {
        for event in events {
            encode(event, into: &buffer)
        }
    }

    /// The line for `event` as text, without its newline: for tests, documentation and tools that
    /// print one line at a time.
    public static func line(for event: TraceEvent) -> String {
        var buffer: [UInt8] = []
        encode(event, into: &buffer)
        return String(decoding: buffer.dropLast(), as: UTF8.self)
    }

    /// Writes the kind and the fields every event starts with: `seq`, `t` and, when given, `thread`.
    @inline(__always)
    private static func stamp(
        _ opening: StaticString, _ seq: UInt64, _ timestamp: UInt64, _ thread: UInt64?, into buffer: inout [UInt8]
    ) {
        buffer.appendLiteral(opening)
        buffer.appendDecimal(seq)
        buffer.appendLiteral(",\"t\":")
        buffer.appendDecimal(timestamp)
        if let thread {
            buffer.appendLiteral(",\"thread\":")
            buffer.appendDecimal(thread)
        }
    }

    private static func encode(_ header: TraceHeader, into buffer: inout [UInt8]) {
        buffer.appendLiteral("{\"k\":\"header\",\"format\":")
        buffer.appendJSONString(TraceHeader.formatName)
        buffer.appendLiteral(",\"version\":\"")
        buffer.appendDecimal(header.version.major)
        buffer.append(0x2E)
        buffer.appendDecimal(header.version.minor)
        buffer.appendLiteral("\",\"pid\":")
        buffer.appendDecimal(Int(header.pid))
        buffer.appendLiteral(",\"process\":")
        buffer.appendJSONString(header.process)
        buffer.appendLiteral(",\"center\":")
        buffer.appendJSONString(header.center)
        buffer.appendLiteral(",\"clockMono\":")
        buffer.appendDecimal(header.clockMono)
        buffer.appendLiteral(",\"clockWall\":")
        buffer.appendDecimal(header.clockWall)
        buffer.appendLiteral(",\"producer\":")
        buffer.appendJSONString(header.producer)
    }

    private static func encode(_ thread: TraceThread, into buffer: inout [UInt8]) {
        stamp("{\"k\":\"thread\",\"seq\":", thread.seq, thread.timestamp, nil, into: &buffer)
        buffer.appendLiteral(",\"id\":")
        buffer.appendDecimal(thread.id)
        buffer.appendLiteral(",\"systemID\":")
        buffer.appendDecimal(Int(thread.systemID))
        buffer.appendLiteral(",\"name\":")
        buffer.appendJSONString(thread.name)
        buffer.appendLiteral(",\"isMain\":")
        buffer.appendBool(thread.isMain)
    }

    private static func encode(_ registration: TraceRegistration, into buffer: inout [UInt8]) {
        stamp("{\"k\":\"register\",\"seq\":", registration.seq, registration.timestamp, registration.thread,
              into: &buffer)
        buffer.appendLiteral(",\"id\":")
        buffer.appendDecimal(registration.id)
        buffer.appendLiteral(",\"name\":")
        buffer.appendOptionalString(registration.name)
        buffer.appendLiteral(",\"kind\":")
        buffer.appendJSONString(registration.kind.rawValue)
        buffer.appendLiteral(",\"observer\":")
        buffer.appendOptionalDecimal(registration.observer)
        buffer.appendLiteral(",\"object\":")
        buffer.appendOptionalDecimal(registration.object)
        buffer.appendLiteral(",\"target\":")
        buffer.appendJSONString(registration.target.rawValue)
        buffer.appendLiteral(",\"targetLabel\":")
        buffer.appendOptionalString(registration.targetLabel)
        buffer.appendLiteral(",\"callsite\":")
        buffer.appendDecimal(registration.callsite)
        buffer.appendLiteral(",\"preexisting\":")
        buffer.appendBool(registration.preexisting)
        buffer.appendLiteral(",\"capturesObserverStrongly\":")
        buffer.appendBool(registration.capturesObserverStrongly)
        buffer.appendLiteral(",\"mainThreadOnly\":")
        buffer.appendBool(registration.mainThreadOnly)
        buffer.appendLiteral(",\"registeredAt\":")
        buffer.appendOptionalDecimal(registration.registeredAt)
    }

    private static func encode(_ post: TracePost, into buffer: inout [UInt8]) {
        stamp("{\"k\":\"post\",\"seq\":", post.seq, post.timestamp, post.thread, into: &buffer)
        buffer.appendLiteral(",\"postID\":")
        buffer.appendDecimal(post.postID)
        buffer.appendLiteral(",\"name\":")
        buffer.appendJSONString(post.name)
        buffer.appendLiteral(",\"object\":")
        buffer.appendOptionalDecimal(post.object)
        buffer.appendLiteral(",\"hasUserInfo\":")
        buffer.appendBool(post.hasUserInfo)
        buffer.appendLiteral(",\"matched\":")
        buffer.appendDecimal(post.matched)
        buffer.appendLiteral(",\"depth\":")
        buffer.appendDecimal(post.depth)
        buffer.appendLiteral(",\"parentPostID\":")
        buffer.appendDecimal(post.parentPostID)
        buffer.appendLiteral(",\"callsite\":")
        buffer.appendDecimal(post.callsite)
    }

    private static func encode(_ delivery: TraceDelivery, into buffer: inout [UInt8]) {
        stamp("{\"k\":\"deliver\",\"seq\":", delivery.seq, delivery.timestamp, delivery.thread, into: &buffer)
        buffer.appendLiteral(",\"postID\":")
        buffer.appendDecimal(delivery.postID)
        buffer.appendLiteral(",\"registration\":")
        buffer.appendDecimal(delivery.registration)
        buffer.appendLiteral(",\"name\":")
        buffer.appendJSONString(delivery.name)
        buffer.appendLiteral(",\"postingThread\":")
        buffer.appendDecimal(delivery.postingThread)
        buffer.appendLiteral(",\"target\":")
        buffer.appendJSONString(delivery.target.rawValue)
        buffer.appendLiteral(",\"start\":")
        buffer.appendDecimal(delivery.start)
        buffer.appendLiteral(",\"duration\":")
        buffer.appendDecimal(delivery.duration)
        buffer.appendLiteral(",\"wait\":")
        buffer.appendDecimal(delivery.wait)
        buffer.appendLiteral(",\"depth\":")
        buffer.appendDecimal(delivery.depth)
    }

    private static func encode(_ activity: TraceQueueActivity, into buffer: inout [UInt8]) {
        stamp("{\"k\":\"queue\",\"seq\":", activity.seq, activity.timestamp, activity.thread, into: &buffer)
        buffer.appendLiteral(",\"queueID\":")
        buffer.appendDecimal(activity.queueID)
        buffer.appendLiteral(",\"action\":")
        buffer.appendJSONString(activity.action.rawValue)
        buffer.appendLiteral(",\"name\":")
        buffer.appendOptionalString(activity.name)
        buffer.appendLiteral(",\"style\":")
        buffer.appendOptionalString(activity.style)
        buffer.appendLiteral(",\"count\":")
        buffer.appendDecimal(activity.count)
        buffer.appendLiteral(",\"pending\":")
        buffer.appendDecimal(activity.pending)
    }
}
