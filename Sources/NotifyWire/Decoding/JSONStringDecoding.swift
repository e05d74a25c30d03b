/// Turns a scanned JSON string's bytes into a `String`: escapes, `\uXXXX` and surrogate pairs.
enum JSONStringDecoding {
    /// Why an escaped string could not become text; the scanner has already checked the syntax.
    enum Failure: Error {
        case loneSurrogate
    }

    /// The value of one hex digit, or nil.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte &- UInt8(ascii: "A") &+ 10)
        default: nil
        }
    }

    /// Decodes string content (between the quotes). Invalid UTF-8 becomes U+FFFD, as everywhere
    /// else a `String` is made from bytes.
    static func decode(_ content: UnsafeBufferPointer<UInt8>, escaped: Bool) throws(Failure) -> String {
        guard escaped else { return String(decoding: content, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(content.count)
        var index = 0
        while index < content.count {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = content[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(content, at: index)
                index += 4
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // A high surrogate must be followed by an escaped low one: together, one scalar.
                    guard index + 6 <= content.count, content[index] == UInt8(ascii: "\\"),
                        content[index + 1] == UInt8(ascii: "u")
                    else { throw .loneSurrogate }
                    let low = hex4(content, at: index + 2)
                    guard low >= 0xDC00 && low < 0xE000 else { throw .loneSurrogate }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw .loneSurrogate
                }
                appendUTF8(Unicode.Scalar(scalar)!, to: &output)
            default: output.append(escape)  // '"', '\\' and '/'
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    @inline(__always)
    private static func hex4(_ content: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            value = value << 4 | (hexValue(content[index + offset]) ?? 0)
        }
        return value
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        if let ascii = UInt8(exactly: scalar.value), ascii < 0x80 {
            output.append(ascii)
            return
        }
        output.append(contentsOf: UTF8.encode(scalar)!)
    }
}
