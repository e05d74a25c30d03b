/// Short, fixed-width renderings of numbers for table cells and the header.
///
/// Pure and locale-free, so frames are identical on every machine and in every test.
package enum Format {
    /// Nanoseconds as `850ns`, `12µs`, `1.2ms`, `340ms`, `2.1s`, `3m05s`.
    package static func duration(_ nanoseconds: UInt64, ascii: Bool = false) -> String {
        let ns = Double(nanoseconds)
        switch nanoseconds {
        case 0: return "0"
        case ..<1_000: return "\(nanoseconds)ns"
        case ..<10_000: return one(ns / 1_000) + (ascii ? "us" : "µs")
        case ..<1_000_000: return "\(nanoseconds / 1_000)" + (ascii ? "us" : "µs")
        case ..<10_000_000: return one(ns / 1_000_000) + "ms"
        case ..<1_000_000_000: return "\(nanoseconds / 1_000_000)ms"
        case ..<60_000_000_000: return one(ns / 1_000_000_000) + "s"
        default: return age(nanoseconds)
        }
    }

    /// An age: `0s`, `42s`, `3m05s`, `2h10m`, `3d4h`.
    package static func age(_ nanoseconds: UInt64) -> String {
        let seconds = nanoseconds / 1_000_000_000
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3_600: return "\(seconds / 60)m" + two(seconds % 60) + "s"
        case ..<86_400: return "\(seconds / 3_600)h" + two(seconds / 60 % 60) + "m"
        default: return "\(seconds / 86_400)d\(seconds / 3_600 % 24)h"
        }
    }

    /// A count: `999`, `12.3k`, `123k`, `4.5M`, `1.2G`.
    package static func count(_ value: UInt64) -> String {
        let number = Double(value)
        switch value {
        case ..<10_000: return "\(value)"
        case ..<100_000: return one(number / 1_000) + "k"
        case ..<1_000_000: return "\(value / 1_000)k"
        case ..<100_000_000: return one(number / 1_000_000) + "M"
        case ..<1_000_000_000: return "\(value / 1_000_000)M"
        default: return one(number / 1_000_000_000) + "G"
        }
    }

    /// A rate per second, like ``count(_:)`` but from a Double.
    package static func rate(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return "0" }
        if value < 10 { return one(value) }
        // Past 2^64 − 1 a crafted count would trap the conversion: shown as the most a count can be.
        let rounded = value.rounded()
        return count(rounded < 0x1p64 ? UInt64(rounded) : .max)
    }

    /// Seconds since the stream's start with millisecond precision: `12.345`.
    package static func streamTime(_ nanoseconds: UInt64) -> String {
        let millis = nanoseconds / 1_000_000
        return "\(millis / 1_000)." + three(millis % 1_000)
    }

    /// A delay in milliseconds: `500ms`, `1.5s`.
    package static func delay(milliseconds: Int) -> String {
        milliseconds < 1_000 ? "\(milliseconds)ms" : one(Double(milliseconds) / 1_000) + "s"
    }

    /// A replay speed: `×0.25`, `×1`, `×16`.
    package static func speed(_ value: Double, times: String) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return times + "\(Int(rounded))" }
        var text = "\(rounded)"
        while text.hasSuffix("0") { text.removeLast() }
        return times + text
    }

    /// One decimal, without Foundation: `1.2`.
    static func one(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    static func three(_ value: UInt64) -> String { value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)" }
}
