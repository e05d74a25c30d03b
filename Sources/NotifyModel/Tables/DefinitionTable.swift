import NotifyWire

/// An object as the tables show it: its type name and address, resolved from the trace's
/// definitions when a registration arrives.
///
/// Why resolved eagerly: definitions are bounded and may be forgotten later; a row keeps what it
/// needs to display itself.
public struct ObjectInfo: Sendable, Hashable, CustomStringConvertible {
    /// The trace's object id.
    public var id: UInt64
    /// The dynamic type, such as `Demo.CartScreen`; `"?"` when the definition was never seen.
    public var typeName: String
    /// Display text only: addresses are reused.
    public var address: UInt64

    /// Creates an object description.
    public init(id: UInt64, typeName: String, address: UInt64) {
        self.id = id
        self.typeName = typeName
        self.address = address
    }

    /// `Demo.CartScreen@0x7f3a5c00e0a0`.
    public var description: String { "\(typeName)@0x\(String(address, radix: 16))" }
}

/// A source location as the tables show it.
public struct CallsiteInfo: Sendable, Hashable, CustomStringConvertible {
    /// The trace's callsite id.
    public var id: UInt64
    /// The `#fileID`; `"?"` when the definition was never seen.
    public var file: String
    /// The line.
    public var line: UInt

    /// Creates a callsite description.
    public init(id: UInt64, file: String, line: UInt) {
        self.id = id
        self.file = file
        self.line = line
    }

    /// `Demo/Cart.swift:42`; the file alone when the line is 0 (unknown, as for a site the trace
    /// says was not seen).
    public var description: String { line == 0 ? file : "\(file):\(line)" }

    /// True when the trace could not say where the call was made: a definition never seen (`?`),
    /// an address no symbol covers (`unknown`), or a call the producer did not see (`not seen: …`).
    /// Two calls at such a site are not known to share a place.
    public var isUnknown: Bool { file == "?" || file == "unknown" || file.hasPrefix("not seen") }
}

/// The trace's definition lines (types, objects, callsites), bounded.
///
/// Types and callsites are bounded by the app's code; objects are not (every posted sender is
/// introduced), so past the cap only objects that tracked registrations use are kept.
struct DefinitionTable: Sendable {
    private(set) var types: [UInt64: String] = [:]
    private(set) var objects: [UInt64: TraceObject] = [:]
    private(set) var callsites: [UInt64: CallsiteInfo] = [:]
    let maximumObjects: Int
    /// Trim when the object table reaches this; raised when a trim frees little, so a table full
    /// of referenced objects is not rescanned on every definition.
    private var trimAt: Int
    /// Object definitions forgotten to stay under the cap.
    private(set) var forgottenObjects: UInt64 = 0
    /// Type or callsite definitions refused past the cap.
    private(set) var refused: UInt64 = 0

    init(maximumObjects: Int) {
        self.maximumObjects = maximumObjects
        trimAt = maximumObjects
    }

    mutating func define(_ type: TraceType) {
        guard types[type.id] != nil || types.count < maximumObjects else { refused += 1; return }
        types[type.id] = SwiftSymbolName.typeName(type.name)
    }

    mutating func define(_ callsite: TraceCallsite) {
        guard callsites[callsite.id] != nil || callsites.count < maximumObjects else { refused += 1; return }
        // A site named only by its function's symbol (line 0) reads as the function, demangled.
        let file = callsite.line == 0 ? SwiftSymbolName.siteName(callsite.file) ?? callsite.file : callsite.file
        callsites[callsite.id] = CallsiteInfo(id: callsite.id, file: file, line: callsite.line)
    }

    /// Adds an object; when full, first forgets every object not in `keep`.
    mutating func define(_ object: TraceObject, keeping keep: () -> Set<UInt64>) {
        if objects.count >= trimAt, objects[object.id] == nil {
            let kept = keep()
            let before = objects.count
            objects = objects.filter { kept.contains($0.key) }
            forgottenObjects += UInt64(before - objects.count)
            trimAt = max(maximumObjects, objects.count + maximumObjects / 4)
        }
        objects[object.id] = object
    }

    func object(_ id: UInt64) -> ObjectInfo {
        guard let object = objects[id] else { return ObjectInfo(id: id, typeName: "?", address: 0) }
        return ObjectInfo(id: id, typeName: types[object.type] ?? "?", address: object.address)
    }

    func callsite(_ id: UInt64) -> CallsiteInfo {
        callsites[id] ?? CallsiteInfo(id: id, file: "?", line: 0)
    }
}
