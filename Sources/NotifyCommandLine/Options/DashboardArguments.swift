public import ArgumentParser
import NotifyModel
import NotifyTUI

// The dashboard's own types, as the command line spells them.

extension Theme: ExpressibleByArgument {
    /// `default`, `light` or `mono`, any case.
    package init?(argument: String) {
        self.init(name: argument)
    }

    package var defaultValueDescription: String { rawValue }

    package static var allValueStrings: [String] { allCases.map(\.rawValue) }

    package static var allValueDescriptions: [String: String] { [:] }
}

extension LeakSeverity: ExpressibleByArgument {
    /// `info`, `warning` or `error`, any case (not the raw numbers).
    package init?(argument: String) {
        guard let severity = Self.allCases.first(where: { $0.description == argument.lowercased() }) else {
            return nil
        }
        self = severity
    }

    package var defaultValueDescription: String { description }

    package static var allValueStrings: [String] { allCases.map(\.description) }

    package static var allValueDescriptions: [String: String] { [:] }
}

extension Size: ExpressibleByArgument {
    /// `120x40`: columns by rows, each from 1 to 9999.
    package init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let width = Int(parts[0]), let height = Int(parts[1]),
            (1...9999).contains(width), (1...9999).contains(height)
        else { return nil }
        self.init(width: width, height: height)
    }
}
