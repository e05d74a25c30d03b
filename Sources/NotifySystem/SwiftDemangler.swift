#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The Swift runtime's `swift_demangle`, found once through `dlsym`, for symbols another process
/// named: the input is bounded and handed over NUL-terminated (the runtime reads it with `strlen`
/// before it heeds the length), and the output is bounded. What it returns is as untrusted as the
/// symbol and is escaped where shown, as every name is.
package enum SwiftDemangler {
    /// Symbols longer than this many bytes are not demangled.
    package static let maximumInputBytes = 1_024

    /// The runtime's reading of `symbol`, cut to its first `maximumOutputBytes` bytes (`wasCut`
    /// then says so); nil when `symbol` is empty or too long, holds a NUL, or the runtime cannot
    /// read it or is not loaded.
    package static func demangle(_ symbol: String, maximumOutputBytes: Int) -> (readable: String, wasCut: Bool)? {
        let length = symbol.utf8.count
        guard length > 0, length <= maximumInputBytes, !symbol.utf8.contains(0), let demangle = runtimeDemangle
        else { return nil }
        var input = Array(symbol.utf8)
        input.append(0)
        guard
            let output = input.withUnsafeBufferPointer({ buffer in
                buffer.withMemoryRebound(to: CChar.self) { demangle($0.baseAddress, length, nil, nil, 0) }
            })
        else { return nil }
        defer { free(output) }
        let outputLength = strnlen(output, maximumOutputBytes + 1)
        let kept = UnsafeRawBufferPointer(start: output, count: min(outputLength, maximumOutputBytes))
        return (String(decoding: kept, as: UTF8.self), outputLength > maximumOutputBytes)
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
