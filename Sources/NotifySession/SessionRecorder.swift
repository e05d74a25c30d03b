import NotifyEvents
import NotifyTrace

/// Records a live session from the moment `r` is pressed: a self-contained log that replays on
/// its own.
///
/// A log started mid-session must still make sense to a reader, so it opens with what the session
/// learned before: the header, every definition (threads, types, objects, callsites) and every live
/// registration, marked `preexisting` exactly as a fresh attach would receive them. After that,
/// each event is written as it is folded. (`--record FILE` instead saves the raw bytes from the
/// first one.)
public struct SessionRecorder {
    /// What a prelude needs, kept up to date from every event whether recording or not.
    public struct Memory {
        var header: TraceHeader?
        var definitions: [TraceEvent] = []
        var definitionIndex: [DefinitionKey: Int] = [:]
        var live: [UInt64: TraceRegistration] = [:]
        /// The newest event time seen: when a recording started now begins.
        var latest: UInt64 = 0
        /// Definitions kept at most; a log started after this many still replays, with some
        /// objects shown by id only.
        let maximumDefinitions = 200_000

        /// Creates an empty memory.
        public init() {}

        /// Notes what a prelude would need from `event`.
        public mutating func observe(_ event: TraceEvent) {
            if let time = event.timestamp, time > latest { latest = time }
            switch event {
            case .header(let header): self.header = header
            case .thread(let thread): define(DefinitionKey(kind: .thread, id: thread.id), event)
            case .type(let type): define(DefinitionKey(kind: .type, id: type.id), event)
            case .object(let object): define(DefinitionKey(kind: .object, id: object.id), event)
            case .callsite(let site): define(DefinitionKey(kind: .callsite, id: site.id), event)
            case .registered(let registration): live[registration.id] = registration
            case .removed(let removal): live[removal.registration] = nil
            default: break
            }
        }

        /// A definition's kind and id: a later definition with the same key replaces it.
        struct DefinitionKey: Hashable {
            enum Kind: UInt8 { case thread, type, object, callsite }
            var kind: Kind
            var id: UInt64
        }

        private mutating func define(_ key: DefinitionKey, _ event: TraceEvent) {
            if let index = definitionIndex[key] {
                definitions[index] = event
            } else if definitions.count < maximumDefinitions {
                definitionIndex[key] = definitions.count
                definitions.append(event)
            }
        }
    }

    /// The file being written.
    public let path: String
    private let recorder: TraceRecorder
    private var buffer: [UInt8] = []

    /// Creates `path` and writes the prelude.
    public init(path: String, memory: Memory) throws(TraceError) {
        self.path = path
        recorder = try TraceRecorder(path: path)
        guard let header = memory.header else { throw .invalid("nothing to record yet: no header received") }
        var prelude: [TraceEvent] = [.header(header)]
        prelude += memory.definitions.map { definition in
            guard case .thread(var thread) = definition else { return definition }
            thread.timestamp = max(thread.timestamp, memory.latest)
            return .thread(thread)
        }
        // Threads and registrations are stamped with the moment recording starts, as a late
        // viewer's snapshot is: a replay starts its clock at the first timed line, so their old
        // times would make it wait through everything that happened before the recording.
        for registration in memory.live.values.sorted(by: { $0.id < $1.id }) {
            var snapshot = registration
            snapshot.preexisting = true
            snapshot.timestamp = max(registration.timestamp, memory.latest)
            prelude.append(.registered(snapshot))
        }
        for event in prelude { write(event) }
    }

    /// Appends one event.
    public mutating func write(_ event: TraceEvent) {
        buffer.removeAll(keepingCapacity: true)
        TraceEncoder.encode(event, into: &buffer)
        recorder.write(buffer)
    }

    /// Flushes what is buffered.
    public func flush() { recorder.flush() }

    /// Flushes what has waited a second: for a session with nothing new to write.
    public func flushIfDue() { recorder.flushIfDue() }

    /// The write error that stopped the recording; nil while all is well.
    public var failure: TraceError? { recorder.failure }

    /// One line on how the recording went: bytes in the file, and whether it is complete.
    public var outcome: String { recorder.outcome }

    /// Bytes in the file so far.
    public var byteCount: Int { recorder.bytesWritten }
}
