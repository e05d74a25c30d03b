import ArgumentParser
import NotifyModel
import NotifyTUI

// The dashboard's own types, as the command line spells them.

extension Theme: ExpressibleByArgument {
    /// `default`, `light` or `mono`, any case.
    public init?(argument: String) {
        self.init(name: argument)
    }

    public var defaultValueDescription: String { rawValue }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }

    public static var allValueDescriptions: [String: String] { [:] }
}

extension LeakSeverity: ExpressibleByArgument {
    /// `info`, `warning` or `error`, any case (not the raw numbers).
    public init?(argument: String) {
        guard let severity = Self.allCases.first(where: { $0.description == argument.lowercased() }) else {
            return nil
        }
        self = severity
    }

    public var defaultValueDescription: String { description }

    public static var allValueStrings: [String] { allCases.map(\.description) }

    public static var allValueDescriptions: [String: String] { [:] }
}

extension Size: ExpressibleByArgument {
    /// `120x40`: columns by rows, each from 1 to 9999.
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let width = Int(parts[0]), let height = Int(parts[1]),
              (1...9999).contains(width), (1...9999).contains(height) else { return nil }
        self.init(width: width, height: height)
    }
}
