import Glibc

/// Swift's mangled symbols made readable for display: a type (`$s6ocdemo8DocumentCN` reads
/// `ocdemo.Document`) and a call site the trace could only name by its function's symbol
/// (Foundation's own frames read `Foundation (NotificationQueue)`).
///
/// Demangled by the Swift runtime's `swift_demangle`, found once through `dlsym`; without it a
/// symbol stays as it came. The input is bounded and so is the result; the result is as untrusted
/// as the symbol (a watched process names its own types), so it is escaped where shown, as every
/// name is.
enum SwiftSymbolName {
    /// Mangled symbols longer than this are shown as they came.
    static let maximumInput = 1_024
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
    static func siteName(_ symbol: String) -> String? {
        guard let readable = demangled(symbol) else { return nil }
        let bytes = Array(readable.utf8)
        let module = Array("Foundation.".utf8)
        guard bytes.count >= module.count,
            let start = (0...(bytes.count - module.count)).first(where: {
                bytes[$0..<$0 + module.count].elementsEqual(module) && ($0 == 0 || !isIdentifier(bytes[$0 - 1]))
            })
        else { return readable }
        let entity = bytes[(start + module.count)...].prefix(while: isIdentifier)
        return entity.isEmpty ? "Foundation" : "Foundation (\(String(decoding: entity, as: UTF8.self)))"
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
        guard isMangled(name), name.utf8.count <= maximumInput, let demangle = runtimeDemangle else { return nil }
        var input = Array(name.utf8)
        guard
            let output = input.withUnsafeMutableBufferPointer({ buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    demangle($0, buffer.count, nil, nil, 0)
                }
            })
        else { return nil }
        defer { free(output) }
        let bytes = UnsafeBufferPointer(start: output, count: strnlen(output, 4 * maximumInput))
            .prefix(maximumOutput).map { UInt8(bitPattern: $0) }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.isEmpty || text == name ? nil : text
    }

    private typealias Demangle =
        @convention(c) (
            UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
        ) -> UnsafeMutablePointer<CChar>?

    /// `swift_demangle` from the runtime loaded in this process.
    private static let runtimeDemangle: Demangle? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_demangle") else { return nil }
        return unsafeBitCast(symbol, to: Demangle.self)
    }()
}
