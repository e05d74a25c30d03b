import ArgumentParser
import NotifySession

/// `--speed 2`: how much faster than recorded a replay plays; 0 plays everything at once.
package struct ReplaySpeed: Sendable, Hashable, ExpressibleByArgument {
    /// 0, or a factor within `ReplayFeed.speeds`.
    package let factor: Double

    /// A plain number, 0 or from 0.25 to 64; nil for anything else rather than clamping it.
    package init?(argument: String) {
        guard argument.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let factor = Double(argument),
            factor == 0 || ReplayFeed.speeds.contains(factor)
        else { return nil }
        self.factor = factor
    }

    package var defaultValueDescription: String { "\(factor)" }
}
