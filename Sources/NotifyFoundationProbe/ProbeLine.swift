/// One line of ``ProbeProgram``'s output, parsed; nil for what is not an event line.
package enum ProbeLine: Sendable, Equatable {
    /// `_addObserver` was entered: `function` and `context` are the observer's closure.
    case add(ProbeCall, object: ProbeObject?, function: UInt64, context: UInt64, name: ProbeName)
    /// `_addObserver` returned the token: its number and its object filter's identifier (0: none),
    /// numbered by Foundation per name and filter.
    case added(thread: Int32, time: UInt64, token: UInt64, filter: UInt64)
    /// `_post` was entered; `message` is the posted value's type metadata (a typed message's type).
    case post(ProbeCall, object: ProbeObject?, message: UInt64? = nil, name: ProbeName)
    /// A typed message observer's add (`_addMainActorObserver`, `_addAsyncObserver`) was entered:
    /// the subject filter, the observer's closure and the message type's metadata.
    case typedAdd(
        ProbeCall, kind: TypedAddKind, object: ProbeObject?, function: UInt64, context: UInt64, message: UInt64)
    /// A typed message observer's add returned its token: number, object filter identifier, the
    /// name's high word (which tells its string apart from another of the same text) and name.
    case typedAdded(thread: Int32, time: UInt64, token: UInt64, filter: UInt64, nameWord: UInt64, name: ProbeName)
    /// An `AsyncMessage` observer's run started on the cooperative pool: its async frame and the
    /// observer's closure.
    case asyncRunStart(thread: Int32, time: UInt64, frame: UInt64, function: UInt64, context: UInt64)
    /// An `AsyncMessage` observer's run ended: `frame` is the one its start gave.
    case asyncRunEnd(thread: Int32, time: UInt64, frame: UInt64)
    /// A posted message reached the buffer of the `AsyncMessage` sequence whose iterator is at
    /// `iterator`, inside the thread's running delivery.
    case sequenceDelivery(thread: Int32, time: UInt64, iterator: UInt64)
    /// `_removeObserver` was entered with the token `token` of name `name` and object filter
    /// identifier `filter` (0: none); `nameWord` is the name's high word when the line gives it.
    case remove(ProbeCall, token: UInt64, filter: UInt64, nameWord: UInt64? = nil, name: ProbeName)
    /// An observer's closure started: `context` is the delivery closure's own context, `function`
    /// and `closureContext` the observer's closure it calls, `inner` the two words that closure's
    /// context holds where an `AsyncMessage` observer's enqueue keeps the app's observer.
    case deliveryStart(
        thread: Int32, time: UInt64, context: UInt64, function: UInt64, closureContext: UInt64,
        inner: ProbeClosure? = nil)
    /// The innermost running observer's closure on `thread` returned.
    case deliveryEnd(thread: Int32, time: UInt64)
    /// The innermost running `_post` on `thread` returned: its last delivery is over.
    case postEnd(thread: Int32, time: UInt64)
    /// `addObserver(forName:object:queue:using:)` was entered with a queue (its address) and the
    /// block `function`/`context`: the thread's next add is this queue observer's. `mainQueue` is
    /// `OperationQueue.main`'s address when the line gives it (0: not made yet).
    case queueAdd(
        thread: Int32, time: UInt64, queue: UInt64, function: UInt64, context: UInt64, mainQueue: UInt64? = nil)
    /// A queue observer's block started on the queue's thread.
    case operationStart(thread: Int32, time: UInt64, function: UInt64, context: UInt64)
    /// The innermost running queue operation on `thread` ended.
    case operationEnd(thread: Int32, time: UInt64)
    /// The process exec'd: what follows is another program's.
    case exec(thread: Int32, time: UInt64)
    /// A `NotificationCenter` deallocated: its registrations are over.
    case centerEnd(thread: Int32, time: UInt64, center: UInt64)
    /// The lines each probe kind had printed by `time`, counted in the kernel (by
    /// ``ProbeLineKind/rawValue``): what did not arrive was lost.
    case counts(time: UInt64, lines: [UInt64])
    /// bpftrace's last word on exiting: `kind`'s lines printed on one CPU (its `@c[kind, cpu]` map).
    case finalCount(kind: Int, count: UInt64)
    /// Every probe is attached.
    case ready
    /// bpftrace lost `count` lines: its buffer was full.
    case lost(count: UInt64)

    /// Parses one line (without its newline).
    package init?(_ line: Substring) {
        if line == "READY" {
            self = .ready
            return
        }
        // The counts' map bpftrace prints as it exits: "@c[3, 1]: 42".
        if line.hasPrefix("@c[") {
            guard let (kind, count) = Self.finalCount(line.dropFirst(3)) else { return nil }
            self = .finalCount(kind: kind, count: count)
            return
        }
        // bpftrace's own report: "Lost 123 events".
        if line.hasPrefix("Lost ") {
            let words = line.split(separator: " ")
            guard words.count >= 2, let count = UInt64(words[1]) else { return nil }
            self = .lost(count: count)
            return
        }
        var fields = ProbeFields(line)
        guard let tag = fields.word(), let thread = fields.decimal().map(Int32.init(truncatingIfNeeded:)),
            let time = fields.decimal()
        else { return nil }
        switch tag {
        case "A":
            guard let center = fields.hex(), let object = fields.object(), let function = fields.hex(),
                let context = fields.hex(), let callers = fields.callers(), let name = fields.name()
            else { return nil }
            self = .add(
                ProbeCall(thread: thread, time: time, center: center, callers: callers), object: object,
                function: function, context: context, name: name)
        case "a":
            guard let token = fields.hex(), let filter = fields.hex() else { return nil }
            self = .added(thread: thread, time: time, token: token, filter: filter)
        case "P":
            guard let center = fields.hex(), let object = fields.object(), let callers = fields.callers() else {
                return nil
            }
            let message = fields.hexBeforeName()
            guard let name = fields.name() else { return nil }
            self = .post(
                ProbeCall(thread: thread, time: time, center: center, callers: callers), object: object,
                message: message, name: name)
        case "R":
            guard let center = fields.hex(), let token = fields.hex(), let filter = fields.hex(),
                let callers = fields.callers()
            else { return nil }
            let nameWord = fields.hexBeforeName()
            guard let name = fields.name() else { return nil }
            self = .remove(
                ProbeCall(thread: thread, time: time, center: center, callers: callers), token: token, filter: filter,
                nameWord: nameWord, name: name)
        case "M", "Y", "G":
            guard let center = fields.hex(), let object = fields.object(), let function = fields.hex(),
                let context = fields.hex(), let message = fields.hex(), let callers = fields.callers()
            else { return nil }
            self = .typedAdd(
                ProbeCall(thread: thread, time: time, center: center, callers: callers),
                kind: tag == "M" ? .mainActor : tag == "Y" ? .async : .sequence, object: object, function: function,
                context: context, message: message)
        case "m":
            guard let token = fields.hex(), let filter = fields.hex(), let nameWord = fields.hex(),
                let name = fields.name()
            else { return nil }
            self = .typedAdded(
                thread: thread, time: time, token: token, filter: filter, nameWord: nameWord, name: name)
        case "W":
            guard let frame = fields.hex(), let function = fields.hex(), let context = fields.hex() else { return nil }
            self = .asyncRunStart(thread: thread, time: time, frame: frame, function: function, context: context)
        case "w":
            guard let frame = fields.hex() else { return nil }
            self = .asyncRunEnd(thread: thread, time: time, frame: frame)
        case "B":
            guard let iterator = fields.hex() else { return nil }
            self = .sequenceDelivery(thread: thread, time: time, iterator: iterator)
        case "D":
            guard let context = fields.hex(), let function = fields.hex(), let closureContext = fields.hex() else {
                return nil
            }
            var inner: ProbeClosure?
            if let innerFunction = fields.hex() {
                guard let innerContext = fields.hex() else { return nil }
                inner = ProbeClosure(function: innerFunction, context: innerContext)
            }
            self = .deliveryStart(
                thread: thread, time: time, context: context, function: function, closureContext: closureContext,
                inner: inner)
        case "d":
            self = .deliveryEnd(thread: thread, time: time)
        case "p":
            self = .postEnd(thread: thread, time: time)
        case "X":
            self = .exec(thread: thread, time: time)
        case "E":
            guard let center = fields.hex() else { return nil }
            self = .centerEnd(thread: thread, time: time, center: center)
        case "C":
            var lines: [UInt64] = []
            while lines.count < ProbeLineKind.allCases.count, let count = fields.decimal() { lines.append(count) }
            guard lines.count == ProbeLineKind.allCases.count else { return nil }
            self = .counts(time: time, lines: lines)
        case "Q":
            guard let queue = fields.hex(), let function = fields.hex(), let context = fields.hex() else { return nil }
            self = .queueAdd(
                thread: thread, time: time, queue: queue, function: function, context: context, mainQueue: fields.hex())
        case "O":
            guard let function = fields.hex(), let context = fields.hex() else { return nil }
            self = .operationStart(thread: thread, time: time, function: function, context: context)
        case "o":
            self = .operationEnd(thread: thread, time: time)
        default:
            return nil
        }
    }
}

extension ProbeLine {
    /// `KIND, CPU]: COUNT`, the rest of one line of the counts' map; nil for another map or kind.
    private static func finalCount(_ rest: Substring) -> (Int, UInt64)? {
        let parts = rest.split(separator: "]", maxSplits: 1)
        guard parts.count == 2, parts[1].hasPrefix(": "),
            let kind = parts[0].split(separator: ",").first.flatMap({ Int($0) }),
            ProbeLineKind(rawValue: kind) != nil, let count = UInt64(parts[1].dropFirst(2))
        else { return nil }
        return (kind, count)
    }
}

/// What every probed call carries: who called, when, on which center, from where.
package struct ProbeCall: Sendable, Equatable {
    package var thread: Int32
    package var time: UInt64
    /// The `NotificationCenter` instance.
    package var center: UInt64
    /// The probed function's return address, then its caller's and that one's: the first outside
    /// Foundation is the app's call site.
    package var callers: [UInt64]

    package init(thread: Int32, time: UInt64, center: UInt64, callers: [UInt64]) {
        self.thread = thread
        self.time = time
        self.center = center
        self.callers = callers
    }
}

/// An `Any?` object argument that held something: its first word (an object's address) and its
/// type metadata.
package struct ProbeObject: Sendable, Equatable {
    package var word: UInt64
    package var type: UInt64

    package init(word: UInt64, type: UInt64) {
        self.word = word
        self.type = type
    }
}

/// Which typed message observer an add is: a `sequence` is an `AsyncMessage` sequence's iterator,
/// whose add line carries the iterator (as the context, function 0) in place of a closure.
package enum TypedAddKind: Sendable, Equatable {
    case mainActor, async, sequence
}

/// A closure's two words: its function and its context.
package struct ProbeClosure: Sendable, Equatable, Hashable {
    package var function: UInt64
    package var context: UInt64

    package init(function: UInt64, context: UInt64) {
        self.function = function
        self.context = context
    }
}

/// A notification name as the probes saw it.
package enum ProbeName: Sendable, Equatable {
    /// `nil`: every name.
    case none
    /// The name's text; `truncated` when it was longer than the probes read.
    case text(String, truncated: Bool)
}

/// Splits a line into words, the last field (a large name) taking the rest of the line.
private struct ProbeFields {
    private var rest: Substring

    init(_ line: Substring) { rest = line }

    mutating func word() -> Substring? {
        guard !rest.isEmpty else { return nil }
        if let space = rest.firstIndex(of: " ") {
            let word = rest[..<space]
            rest = rest[rest.index(after: space)...]
            return word
        }
        defer { rest = rest[rest.endIndex...] }
        return rest
    }

    mutating func decimal() -> UInt64? { word().flatMap { UInt64($0) } }

    /// A hex word before the name, when there is one: a name starts with `S`, `L` or `N`, which
    /// no hex word does.
    mutating func hexBeforeName() -> UInt64? {
        guard let first = rest.first, first != "S", first != "L", first != "N" else { return nil }
        return hex()
    }
    mutating func hex() -> UInt64? { word().flatMap { UInt64($0, radix: 16) } }

    /// Two words: the first word and the metadata of an `Any?`; nil metadata means none.
    mutating func object() -> ProbeObject?? {
        guard let word = hex(), let type = hex() else { return nil }
        return .some(type == 0 ? nil : ProbeObject(word: word, type: type))
    }

    mutating func callers() -> [UInt64]? {
        guard let first = hex(), let second = hex(), let third = hex() else { return nil }
        return [first, second, third]
    }

    mutating func name() -> ProbeName? {
        switch word() {
        case "N": return ProbeName.none
        case "S":
            guard let low = hex(), let high = hex(), let text = SwiftStringWords.smallString(low: low, high: high)
            else {
                return nil
            }
            return .text(text, truncated: false)
        case "L":
            guard let count = decimal() else { return nil }
            let text = String(rest)
            rest = rest[rest.endIndex...]
            return .text(text, truncated: UInt64(text.utf8.count) < count)
        default: return nil
        }
    }
}

extension ProbeName {
    /// The name, nil for none.
    package var text: String? {
        if case .text(let text, _) = self { return text }
        return nil
    }

    /// The name as shown, nil for none: one the probes cut ends in `…`, so it never reads as whole.
    package var shown: String? {
        guard case .text(let text, let truncated) = self else { return nil }
        return truncated ? text + "…" : text
    }
}
