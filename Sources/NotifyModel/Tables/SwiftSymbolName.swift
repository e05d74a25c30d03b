import NotifySystem

/// Swift's mangled symbols made readable for display: a type (`$s6ocdemo8DocumentCN` reads
/// `ocdemo.Document`) and a call site the trace could only name by its function's symbol
/// (Foundation's own frames read `Foundation (NotificationQueue)`).
///
/// Demangled by NotifySystem's `SwiftDemangler` (the runtime's `swift_demangle`, bounded): without
/// the runtime a symbol stays as it came, and so does one past the bound.
enum SwiftSymbolName {
    /// Readable names are cut to this many bytes.
    static let maximumOutput = 256

    /// A type's readable name; `name` itself when it is not a mangled Swift symbol.
    static func typeName(_ name: String) -> String {
        guard let readable = demangled(name) else { return name }
        for prefix in ["full type metadata for ", "type metadata for ", "nominal type descriptor for "]
        where readable.hasPrefix(prefix) {
            return String(readable.dropFirst(prefix.count))
        }
        return readable
    }

    /// A call site named by a function's symbol (line 0): Foundation's own frames as
    /// `Foundation (Type)`, other functions by their demangled name; nil when not mangled.
    ///
    /// A frame is Foundation's when the function is defined there: `Foundation.NotificationQueue.…`,
    /// a closure in one, or `(extension in Foundation):…`; not an app's function that merely takes
    /// Foundation's types, nor the app's extension of a Foundation type.
    static func siteName(_ symbol: String) -> String? {
        guard let readable = demangled(symbol) else { return nil }
        var entity = innermostEntity(Array(readable.utf8))
        while let qualifier = qualifiers.first(where: { entity.starts(with: $0) }) {
            entity = entity.dropFirst(qualifier.count)
        }
        guard let (module, path) = definingModule(entity), foundationModules.contains(module) else { return readable }
        var rest = path[...]
        if rest.starts(with: Array("__C.".utf8)) { rest = rest.dropFirst(4) }
        let type = rest.prefix(while: isIdentifier)
        return type.isEmpty ? "Foundation" : "Foundation (\(String(decoding: type, as: UTF8.self)))"
    }

    private static let foundationModules: Set<String> = ["Foundation", "FoundationEssentials"]
    private static let qualifiers = ["static ", "@objc ", "@nonobjc ", "dynamic "].map { Array($0.utf8) }

    /// What follows the last ` in `, ` of ` or ` for ` outside brackets: the function a closure,
    /// specialization or thunk belongs to.
    private static func innermostEntity(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        let separators = [" in ", " of ", " for "].map { Array($0.utf8) }
        var depth = 0
        var start = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "<"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"): depth = max(0, depth - 1)
            case UInt8(ascii: ">") where index == 0 || bytes[index - 1] != UInt8(ascii: "-"): depth = max(0, depth - 1)
            case UInt8(ascii: " ") where depth == 0:
                if let separator = separators.first(where: { bytes[index...].starts(with: $0) }) {
                    start = index + separator.count
                    index = start
                    continue
                }
            default: break
            }
            index += 1
        }
        return bytes[start...]
    }

    /// The module that defines `entity` (`(extension in M):…` or `M.…`) and the path after it.
    private static func definingModule(_ entity: ArraySlice<UInt8>) -> (String, ArraySlice<UInt8>)? {
        let extensionPrefix = Array("(extension in ".utf8)
        if entity.starts(with: extensionPrefix) {
            let afterPrefix = entity.dropFirst(extensionPrefix.count)
            let module = afterPrefix.prefix(while: isIdentifier)
            let rest = afterPrefix.dropFirst(module.count)
            guard rest.starts(with: Array("):".utf8)) else { return nil }
            let path = rest.dropFirst(2)
            // The extended type's own module comes next: skip it to reach the type.
            let extendedModule = path.prefix(while: isIdentifier)
            let afterModule = path.dropFirst(extendedModule.count)
            let typePath = afterModule.first == UInt8(ascii: ".") ? afterModule.dropFirst() : path
            return (String(decoding: module, as: UTF8.self), typePath)
        }
        let module = entity.prefix(while: isIdentifier)
        let rest = entity.dropFirst(module.count)
        guard !module.isEmpty, rest.first == UInt8(ascii: ".") else { return nil }
        return (String(decoding: module, as: UTF8.self), rest.dropFirst())
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    /// Whether `name` is spelled as Swift mangles a symbol.
    static func isMangled(_ name: String) -> Bool {
        name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S") || name.hasPrefix("_$S")
            || name.hasPrefix("$e") || name.hasPrefix("_$e") || name.hasPrefix("_T0")
    }

    /// The runtime's demangling of `name`, cut to ``maximumOutput`` bytes; nil when `name` is not
    /// a mangled symbol, too long, or the runtime cannot demangle it.
    static func demangled(_ name: String) -> String? {
        guard isMangled(name), let text = SwiftDemangler.demangle(name, maximumOutputBytes: maximumOutput)?.readable
        else { return nil }
        return text.isEmpty || text == name ? nil : text
    }
}
