import Glibc

/// A type's metadata symbol made readable by the Swift runtime's `swift_demangle` (found once
/// through `dlsym`): `$s3app7EmptiedVN` reads `app.Emptied`, a local type `Emptied #1 in app.run()`.
/// The result is as untrusted as the symbol (the watched process names its types) and is escaped
/// where shown, as every name is.
enum SwiftDemangle {
    /// Readable names are cut to this many bytes, the cut marked with `…`.
    static let maximumOutput = 512

    /// The type a type metadata symbol names; nil for another symbol or one the runtime cannot read.
    static func metadataType(_ symbol: String) -> String? {
        guard symbol.hasPrefix("$s"), symbol.utf8.count <= 1_024, let demangle = runtimeDemangle,
            let output = demangle(symbol, symbol.utf8.count, nil, nil, 0)
        else { return nil }
        defer { free(output) }
        let length = strnlen(output, 4 * maximumOutput)
        let bytes = UnsafeBufferPointer(start: output, count: length).map { UInt8(bitPattern: $0) }
        var text = String(decoding: bytes.prefix(maximumOutput), as: UTF8.self)
        if bytes.count > maximumOutput { text += "…" }
        for prefix in ["full type metadata for ", "type metadata for "] where text.hasPrefix(prefix) {
            let name = String(text.dropFirst(prefix.count))
            return name.isEmpty ? nil : name
        }
        return nil
    }

    private typealias Demangle =
        @convention(c) (
            UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
        ) -> UnsafeMutablePointer<CChar>?

    private static let runtimeDemangle: Demangle? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_demangle") else { return nil }
        return unsafeBitCast(symbol, to: Demangle.self)
    }()
}
