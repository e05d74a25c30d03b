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
            buffer.appendKind(.type)
            buffer.appendKey(.id)
            buffer.appendDecimal(type.id)
            buffer.appendKey(.name)
            buffer.appendJSONString(type.name)
        case .object(let object):
            buffer.appendKind(.object)
            buffer.appendKey(.id)
            buffer.appendDecimal(object.id)
            buffer.appendKey(.type)
            buffer.appendDecimal(object.type)
            buffer.appendKey(.addr)
            buffer.appendHexString(object.address)
        case .center(let center):
            buffer.appendKind(.center)
            buffer.appendKey(.center)
            buffer.appendDecimal(UInt64(center.index))
            buffer.appendKey(.label)
            buffer.appendJSONString(center.label)
        case .callsite(let site):
            buffer.appendKind(.callsite)
            buffer.appendKey(.id)
            buffer.appendDecimal(site.id)
            buffer.appendKey(.file)
            buffer.appendJSONString(site.file)
            buffer.appendKey(.line)
            buffer.appendDecimal(UInt64(site.line))
        // The lines a live stream is made of write their closing too, in one copy.
        case .registered(let registration): return encode(registration, into: &buffer)
        case .posted(let post): return encode(post, into: &buffer)
        case .delivered(let delivery): return encode(delivery, into: &buffer)
        case .removed(let removal):
            stamp(.removed, removal.seq, removal.timestamp, removal.thread, into: &buffer)
            buffer.appendKey(.registration)
            buffer.appendDecimal(removal.registration)
            buffer.appendKey(.reason)
            buffer.appendJSONString(removal.reason.rawValue)
            buffer.appendKey(.callsite)
            buffer.appendOptionalDecimal(removal.callsite)
        case .objectDead(let death):
            stamp(.objectDead, death.seq, death.timestamp, death.thread, into: &buffer)
            buffer.appendKey(.registration)
            buffer.appendDecimal(death.registration)
            buffer.appendKey(.object)
            buffer.appendOptionalDecimal(death.object)
            buffer.appendKey(.aliveAt)
            buffer.appendDecimal(death.aliveAt)
        case .merged(let merge):
            stamp(.merged, merge.seq, merge.timestamp, merge.thread, into: &buffer)
            buffer.appendKey(.queueID)
            buffer.appendDecimal(merge.queueID)
            buffer.appendKey(.postID)
            buffer.appendDecimal(merge.postID)
            buffer.appendKey(.callsite)
            buffer.appendDecimal(merge.callsite)
            buffer.appendKey(.count)
            buffer.appendDecimal(merge.count)
            buffer.appendKey(.enqueuedAt)
            buffer.appendDecimal(merge.enqueuedAt)
        case .tokenDropped(let drop):
            stamp(.tokenDropped, drop.seq, drop.timestamp, drop.thread, into: &buffer)
            buffer.appendKey(.registration)
            buffer.appendDecimal(drop.registration)
        case .removeMissed(let missed):
            stamp(.removeMissed, missed.seq, missed.timestamp, missed.thread, into: &buffer)
            buffer.appendKey(.observer)
            buffer.appendDecimal(missed.observer)
            buffer.appendKey(.name)
            buffer.appendOptionalString(missed.name)
            buffer.appendKey(.callsite)
            buffer.appendDecimal(missed.callsite)
        case .queue(let activity): return encode(activity, into: &buffer)
        case .checkpoint(let checkpoint):
            stamp(
                .checkpoint, checkpoint.seq, checkpoint.timestamp, checkpoint.thread,
                into: &buffer)
            buffer.appendKey(.label)
            buffer.appendJSONString(checkpoint.label)
            buffer.appendKey(.callsite)
            buffer.appendDecimal(checkpoint.callsite)
            if checkpoint.preexisting {
                // Written only when true, so a checkpoint the stream saw reads as in 1.3.
                buffer.appendKey(.preexisting)
                buffer.appendBool(true)
            }
        case .gap(let gap):
            stamp(.gap, gap.seq, gap.timestamp, nil, into: &buffer)
            buffer.appendKey(.count)
            buffer.appendDecimal(gap.count)
            buffer.appendKey(.reason)
            buffer.appendJSONString(gap.reason.rawValue)
        case .end(let end):
            stamp(.end, end.seq, end.timestamp, nil, into: &buffer)
            buffer.appendKey(.reason)
            buffer.appendJSONString(end.reason.rawValue)
            // Written only when known, so an end line without a cause re-encodes as it was.
            if let behind = end.behindNanoseconds {
                buffer.appendKey(.behind)
                buffer.appendDecimal(behind)
            }
            if let missed = end.missedEvents {
                buffer.appendKey(.missed)
                buffer.appendDecimal(missed)
            }
            if let queued = end.queuedBytes {
                buffer.appendKey(.queuedBytes)
                buffer.appendDecimal(queued)
            }
        case .tick(let tick):
            stamp(.tick, tick.seq, tick.timestamp, nil, into: &buffer)
            if let viewers = tick.viewers {
                // Written only when known, so a 1.2 clock line re-encodes as it was.
                buffer.appendKey(.viewers)
                buffer.appendDecimal(viewers)
            }
        case .enqueued(let enqueue):
            return buffer.appendLine(bound: hotLineFixedBytes) { line in
                writeEnqueued(
                    seq: enqueue.seq, timestamp: enqueue.timestamp, thread: enqueue.thread, postID: enqueue.postID,
                    registration: enqueue.registration, pending: enqueue.pending,
                    droppedOldest: enqueue.droppedOldest, into: &line)
            }
        case .history(let history):
            buffer.appendKind(.history)
            buffer.appendKey(.t)
            buffer.appendDecimal(history.timestamp)
            buffer.appendKey(.thread)
            buffer.appendDecimal(history.thread)
            if let name = history.name {
                buffer.appendKey(.name)
                buffer.appendJSONString(name)
            }
            buffer.appendKey(.posts)
            buffer.appendDecimal(history.posts)
            buffer.appendKey(.deliveries)
            buffer.appendDecimal(history.deliveries)
            buffer.appendKey(.unheard)
            buffer.appendDecimal(history.unheard)
            if let registration = history.registration {
                buffer.appendKey(.registration)
                buffer.appendDecimal(registration)
            }
            if history.recent {
                buffer.appendKey(.recent)
                buffer.appendBool(true)
            }
        case .siteCount(let count):
            buffer.appendKind(.siteCount)
            buffer.appendKey(.t)
            buffer.appendDecimal(count.timestamp)
            if let name = count.name {
                buffer.appendKey(.name)
                buffer.appendJSONString(name)
            }
            buffer.appendKey(.callsite)
            buffer.appendDecimal(count.callsite)
            buffer.appendKey(.live)
            buffer.appendDecimal(count.live)
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
        _ kind: WireKind, _ seq: UInt64, _ timestamp: UInt64, _ thread: UInt64?, into buffer: inout [UInt8]
    ) {
        buffer.appendKind(kind)
        buffer.appendKey(.seq)
        buffer.appendDecimal(seq)
        buffer.appendKey(.t)
        buffer.appendDecimal(timestamp)
        if let thread {
            buffer.appendKey(.thread)
            buffer.appendDecimal(thread)
        }
    }

    @inline(__always)
    static func stamp(
        _ kind: WireKind, _ seq: UInt64, _ timestamp: UInt64, _ thread: UInt64, into buffer: inout LineWriter
    ) {
        buffer.appendKind(kind)
        buffer.appendKey(.seq)
        buffer.appendDecimal(seq)
        buffer.appendKey(.t)
        buffer.appendDecimal(timestamp)
        buffer.appendKey(.thread)
        buffer.appendDecimal(thread)
    }

    /// Room for a hot line's keys, numbers, literals, quotes and closing, besides its strings.
    static let hotLineFixedBytes = 512

    private static func encode(_ header: TraceHeader, into buffer: inout [UInt8]) {
        buffer.appendKind(.header)
        buffer.appendKey(.format)
        buffer.appendJSONString(TraceHeader.formatName)
        buffer.appendKey(.version)
        buffer.append(0x22)
        buffer.appendDecimal(header.version.major)
        buffer.append(0x2E)
        buffer.appendDecimal(header.version.minor)
        buffer.append(0x22)
        buffer.appendKey(.pid)
        buffer.appendDecimal(Int(header.pid))
        buffer.appendKey(.process)
        buffer.appendJSONString(header.process)
        buffer.appendKey(.center)
        buffer.appendJSONString(header.center)
        buffer.appendKey(.clockMono)
        buffer.appendDecimal(header.clockMono)
        buffer.appendKey(.clockWall)
        buffer.appendDecimal(header.clockWall)
        buffer.appendKey(.producer)
        buffer.appendJSONString(header.producer)
        if let since = header.since {
            buffer.appendKey(.since)
            buffer.appendDecimal(since)
        }
        if let centers = header.centers {
            // Written only for a stream of several centers, so a one-center header reads as in 1.4.
            buffer.appendKey(.centers)
            buffer.append(UInt8(ascii: "["))
            for (index, label) in centers.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                buffer.appendJSONString(label)
            }
            buffer.append(UInt8(ascii: "]"))
        }
    }

    private static func encode(_ thread: TraceThread, into buffer: inout [UInt8]) {
        stamp(.thread, thread.seq, thread.timestamp, nil, into: &buffer)
        buffer.appendKey(.id)
        buffer.appendDecimal(thread.id)
        buffer.appendKey(.systemID)
        buffer.appendDecimal(Int(thread.systemID))
        buffer.appendKey(.name)
        buffer.appendJSONString(thread.name)
        buffer.appendKey(.isMain)
        buffer.appendBool(thread.isMain)
    }

    private static func encode(_ registration: TraceRegistration, into buffer: inout [UInt8]) {
        let bound = LineWriter.bound(
            fixed: hotLineFixedBytes,
            stringBytes: (registration.name?.utf8.count ?? 0) + registration.kind.rawValue.utf8.count
                + registration.target.rawValue.utf8.count + (registration.targetLabel?.utf8.count ?? 0))
        buffer.appendLine(bound: bound) { buffer in
            stamp(
                .registered, registration.seq, registration.timestamp, registration.thread,
                into: &buffer)
            buffer.appendKey(.id)
            buffer.appendDecimal(registration.id)
            buffer.appendKey(.name)
            buffer.appendOptionalString(registration.name)
            buffer.appendKey(.kind)
            buffer.appendJSONString(registration.kind.rawValue)
            buffer.appendKey(.observer)
            buffer.appendOptionalDecimal(registration.observer)
            buffer.appendKey(.object)
            buffer.appendOptionalDecimal(registration.object)
            buffer.appendKey(.target)
            buffer.appendJSONString(registration.target.rawValue)
            buffer.appendKey(.targetLabel)
            buffer.appendOptionalString(registration.targetLabel)
            buffer.appendKey(.callsite)
            buffer.appendDecimal(registration.callsite)
            buffer.appendKey(.preexisting)
            buffer.appendBool(registration.preexisting)
            buffer.appendKey(.capturesObserverStrongly)
            buffer.appendBool(registration.capturesObserverStrongly)
            buffer.appendKey(.mainThreadOnly)
            buffer.appendBool(registration.mainThreadOnly)
            buffer.appendKey(.registeredAt)
            buffer.appendOptionalDecimal(registration.registeredAt)
            if let deliveries = registration.deliveries {
                // Only a snapshot's registrations carry it, so other lines read as in 1.3.
                buffer.appendKey(.deliveries)
                buffer.appendDecimal(deliveries)
            }
            if let center = registration.center {
                // Only a stream of several centers carries it, so a one-center line reads as in 1.4.
                buffer.appendKey(.center)
                buffer.appendDecimal(UInt64(center))
            }
            buffer.appendLiteral("}\n")
        }
    }

    private static func encode(_ post: TracePost, into buffer: inout [UInt8]) {
        let bound = LineWriter.bound(fixed: hotLineFixedBytes, stringBytes: post.name.utf8.count)
        buffer.appendLine(bound: bound) { line in
            writePosted(
                seq: post.seq, timestamp: post.timestamp, thread: post.thread, postID: post.postID,
                name: { $0.appendJSONString(post.name) }, object: post.object, hasUserInfo: post.hasUserInfo,
                matched: post.matched, depth: post.depth, parentPostID: post.parentPostID, callsite: post.callsite,
                message: post.message, center: post.center, into: &line)
        }
    }

    private static func encode(_ delivery: TraceDelivery, into buffer: inout [UInt8]) {
        let bound = LineWriter.bound(
            fixed: hotLineFixedBytes, stringBytes: delivery.name.utf8.count + delivery.target.rawValue.utf8.count)
        buffer.appendLine(bound: bound) { line in
            writeDelivered(
                seq: delivery.seq, timestamp: delivery.timestamp, thread: delivery.thread, postID: delivery.postID,
                registration: delivery.registration, name: { $0.appendJSONString(delivery.name) },
                postingThread: delivery.postingThread, target: delivery.target, start: delivery.start,
                duration: delivery.duration, wait: delivery.wait, depth: delivery.depth, into: &line)
        }
    }

    private static func encode(_ activity: TraceQueueActivity, into buffer: inout [UInt8]) {
        let bound = LineWriter.bound(
            fixed: hotLineFixedBytes,
            stringBytes: activity.action.rawValue.utf8.count + (activity.name?.utf8.count ?? 0)
                + (activity.style?.utf8.count ?? 0))
        buffer.appendLine(bound: bound) { buffer in
            stamp(.queue, activity.seq, activity.timestamp, activity.thread, into: &buffer)
            buffer.appendKey(.queueID)
            buffer.appendDecimal(activity.queueID)
            buffer.appendKey(.action)
            buffer.appendJSONString(activity.action.rawValue)
            buffer.appendKey(.name)
            buffer.appendOptionalString(activity.name)
            buffer.appendKey(.style)
            buffer.appendOptionalString(activity.style)
            buffer.appendKey(.count)
            buffer.appendDecimal(activity.count)
            buffer.appendKey(.pending)
            buffer.appendDecimal(activity.pending)
            buffer.appendLiteral("}\n")
        }
    }
}
