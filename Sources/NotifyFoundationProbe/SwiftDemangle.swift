import NotifySystem

/// A type's metadata symbol made readable by the Swift runtime (NotifySystem's `SwiftDemangler`):
/// `$s3app7EmptiedVN` reads `app.Emptied`, a local type `Emptied #1 in app.run()`. The result is as
/// untrusted as the symbol (the watched process names its types) and is escaped where shown, as
/// every name is.
enum SwiftDemangle {
    /// Readable names are cut to this many bytes, the cut marked with `…`.
    static let maximumOutput = 512

    /// The type a type metadata symbol names; nil for another symbol or one the runtime cannot read.
    static func metadataType(_ symbol: String) -> String? {
        guard symbol.hasPrefix("$s"), let demangled = SwiftDemangler.demangle(symbol, maximumOutputBytes: maximumOutput)
        else { return nil }
        let text = demangled.wasCut ? demangled.readable + "…" : demangled.readable
        for prefix in ["full type metadata for ", "type metadata for "] where text.hasPrefix(prefix) {
            let name = String(text.dropFirst(prefix.count))
            return name.isEmpty ? nil : name
        }
        return nil
    }
}
