import NotifyKit
import NotifyWire

/// Encodes drained records straight into an ``EncodedChunk``: posts, deliveries and enqueues are
/// written from the records' fields (names quoted once per name serial and kept, callsites,
/// threads and objects looked up through the converter's caches), with no ``ProbeEvent`` or
/// ``TraceEvent`` built for them. Rare events take the converter's general path. The bytes are the
/// same either way.
struct RecordLineEncoder: ProbeRecordVisitor {
    var converter: ProbeEventConverter
    var chunk: EncodedChunk
    /// Scratch for definitions and rare events; empty between records.
    var lines: [TraceEvent]
    let names: QuotedNameCache
    /// A chunk this big is handed to `send` before the next record.
    let chunkBytes: Int
    let send: (inout EncodedChunk) -> Void
    /// Where drained posts and deliveries are added up for viewers that attach later.
    let totals: WatchedTotals?
    /// Events drained so far.
    private(set) var count = 0
    /// ``NotifyThread/renameCount`` as the drain began: renames during it come after its records.
    private let renames = NotifyThread.renameCount

    init(
        converter: ProbeEventConverter, chunk: EncodedChunk, lines: [TraceEvent], names: QuotedNameCache,
        chunkBytes: Int, totals: WatchedTotals? = nil, send: @escaping (inout EncodedChunk) -> Void
    ) {
        self.totals = totals
        self.converter = converter
        self.chunk = chunk
        self.lines = lines
        self.names = names
        self.chunkBytes = chunkBytes
        self.send = send
    }

    /// Whether a loss the drain finds goes out as a `gap` line, ahead of the events drained with it.
    var reportsLoss = true

    mutating func visitDropped(_ count: UInt64) {
        guard reportsLoss else { return }
        chunk.append(
            .gap(
                TraceGap(
                    seq: converter.nextSequence(), timestamp: MonotonicClock.now(), count: count, reason: .bufferFull)))
    }

    mutating func visit(_ event: ProbeEvent) {
        visit(event, center: 0)
    }

    mutating func visit(_ event: ProbeEvent, center: UInt8) {
        count += 1
        converter.translate(event, center: center, into: &lines)
        if let totals {
            totals.count(event, registrationID: { converter.streamID($0, center: center) })
            if case .registered(let registration) = event.kind, registration.preexisting {
                addWatchedDeliveries(of: converter.streamID(registration.id, center: center))
            }
        }
        appendLines()
    }

    /// A snapshot registration's deliveries: the center's count covers only unwatched ones, the
    /// totals hold those drained while earlier viewers watched.
    private mutating func addWatchedDeliveries(of id: UInt64) {
        guard let watched = totals?.deliveries(of: id), watched > 0 else { return }
        for index in lines.indices {
            guard case .registered(var registration) = lines[index], registration.id == id else { continue }
            registration.deliveries = (registration.deliveries ?? 0) + watched
            lines[index] = .registered(registration)
        }
    }

    mutating func visit(_ record: ProbeDrainedRecord) {
        count += 1
        let t = record.timestamp
        if converter.seenRenames < renames {
            converter.reintroduceRenamedThreads(at: t, into: &lines)
        }
        let thread = converter.introduceThread(record.thread, at: t, into: &lines)
        switch record.kind {
        case .posted:
            totals?.countPost(
                thread: record.thread, serial: record.nameSerial, name: { record.name }, unheard: record.matched == 0)
            let object = record.object.map {
                converter.introduceObject(converter.streamObject($0, center: record.center), into: &lines)
            }
            let site = converter.introduceCallsite(file: record.callsiteFile, line: record.callsiteLine, into: &lines)
            appendLines()
            let seq = converter.nextSequence()
            let message = record.message.map(Self.traceMessage)
            let center = converter.centerField(record.center)
            let name = names.quoted(serial: record.nameSerial) { record.name }
            chunk.appendLine(
                bound: TraceEncoder.hotLineBound(quotedNameBytes: name.count), as: .event(seq: seq, events: 1)
            ) { start in
                TraceEncoder.writePosted(
                    seq: seq, timestamp: t, thread: thread, postID: record.postID, quotedName: name, object: object,
                    hasUserInfo: record.hasUserInfo, matched: record.matched, depth: record.depth,
                    parentPostID: record.parentPostID, callsite: site, message: message, center: center, to: start)
            }
        case .delivered:
            let registration = converter.streamID(record.registration, center: record.center)
            totals?.countDelivery(
                thread: record.thread, serial: record.nameSerial, name: { record.name }, registration: registration)
            let posting = converter.introduceThread(record.postingThread, at: t, into: &lines)
            appendLines()
            let seq = converter.nextSequence()
            let name = names.quoted(serial: record.nameSerial) { record.name }
            let target = Self.traceTarget(record.target)
            chunk.appendLine(
                bound: TraceEncoder.hotLineBound(quotedNameBytes: name.count), as: .event(seq: seq, events: 1)
            ) { start in
                TraceEncoder.writeDelivered(
                    seq: seq, timestamp: t, thread: thread, postID: record.postID, registration: registration,
                    quotedName: name, postingThread: posting, target: target, start: record.start,
                    duration: record.duration, wait: record.wait, depth: record.depth, to: start)
            }
        case .messageEnqueued:
            appendLines()
            let seq = converter.nextSequence()
            chunk.appendLine(
                bound: TraceEncoder.hotLineBound(quotedNameBytes: 0), as: .event(seq: seq, events: 1)
            ) { start in
                TraceEncoder.writeEnqueued(
                    seq: seq, timestamp: t, thread: thread, postID: record.postID,
                    registration: converter.streamID(record.registration, center: record.center),
                    pending: record.pending, droppedOldest: record.droppedOldest, to: start)
            }
        }
        if chunk.byteCount >= chunkBytes { send(&chunk) }
    }

    /// Moves the lines the converter wrote into the chunk.
    @inline(__always)
    private mutating func appendLines() {
        guard !lines.isEmpty else { return }
        for line in lines { chunk.append(line) }
        lines.removeAll(keepingCapacity: true)
        if chunk.byteCount >= chunkBytes { send(&chunk) }
    }

    @inline(__always)
    static func traceMessage(_ message: ProbeEvent.MessageKind) -> TraceMessageKind {
        switch message {
        case .mainActor: .mainActor
        case .async: .async
        }
    }

    @inline(__always)
    static func traceTarget(_ target: ProbeEvent.TargetKind) -> TraceTargetKind {
        switch target {
        case .posting: .posting
        case .operationQueue: .operationQueue
        case .dispatchQueue: .dispatchQueue
        case .thread: .thread
        case .main: .main
        case .task: .task
        }
    }
}

/// Names quoted as lines write them, kept by ``ProbeDrainedRecord/nameSerial``, so a name is
/// escaped once, not once per event, and a kept one is found with no string compared.
final class QuotedNameCache {  // used from one thread at a time
    private static let slots = 256
    private static let arenaBytes = 1 << 16
    /// A name longer than this is quoted afresh each time.
    private static let longestKept = 2048
    @exclusivity(unchecked) private var keys = [UInt64](repeating: .max, count: slots)
    @exclusivity(unchecked) private var ranges = [Range<Int>](repeating: 0..<0, count: slots)
    private let arena = UnsafeMutablePointer<UInt8>.allocate(capacity: arenaBytes)
    @exclusivity(unchecked) private var arenaUsed = 0
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    /// The last name too long to keep, quoted: memory of the cache's own, so the pointer handed
    /// out stays valid until the next call.
    @exclusivity(unchecked) private var long = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)

    deinit {
        arena.deallocate()
        long.deallocate()
    }

    /// The name `serial` stands for, quoted; `name` is read only when it is not kept. Valid until
    /// the next call.
    @inline(__always)
    func quoted(serial: UInt64, name: () -> String) -> UnsafeBufferPointer<UInt8> {
        let index = Int(serial % UInt64(Self.slots))
        if keys[index] == serial {
            let range = ranges[index]
            return UnsafeBufferPointer(start: arena + range.lowerBound, count: range.count)
        }
        return remember(name(), key: serial, at: index)
    }

    @inline(never)
    private func remember(_ name: String, key: UInt64, at index: Int) -> UnsafeBufferPointer<UInt8> {
        scratch.removeAll(keepingCapacity: true)
        TraceEncoder.appendQuoted(name, into: &scratch)
        guard scratch.count <= Self.longestKept else {
            keys[index] = .max
            if long.count < scratch.count {
                long.deallocate()
                long = .allocate(capacity: scratch.count)
            }
            _ = long.initialize(from: scratch)
            return UnsafeBufferPointer(rebasing: long[..<scratch.count])
        }
        if arenaUsed + scratch.count > Self.arenaBytes {
            // Full: start afresh, forgetting every name.
            keys = [UInt64](repeating: .max, count: Self.slots)
            arenaUsed = 0
        }
        let start = arenaUsed
        scratch.withUnsafeBufferPointer { (arena + start).update(from: $0.baseAddress!, count: $0.count) }
        arenaUsed += scratch.count
        keys[index] = key
        ranges[index] = start..<arenaUsed
        return UnsafeBufferPointer(start: arena + start, count: scratch.count)
    }
}
