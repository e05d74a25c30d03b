import Foundation

/// What `notify-demo --list-scenarios` prints: the scenarios, then the bugs with their rules and
/// the silent bugs.
package enum DemoCatalog {
    /// The catalog as text, generated from ``DemoScenario`` and ``DemoBug`` so it cannot drift.
    package static var text: String {
        var lines = ["Scenarios (--scenario NAME):"]
        for scenario in DemoScenario.allCases {
            lines.append("  " + scenario.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + scenario.summary)
            let bugs = scenario.defaultBugs
            let list =
                bugs.isEmpty
                ? "none"
                : bugs == DemoBug.allCases ? "all" : bugs.map(\.rawValue).joined(separator: ", ")
            lines.append("          default bugs: \(list)")
        }
        lines.append("")
        lines.append("Bugs (--bugs a,b,c; --no-bugs for none):")
        for bug in DemoBug.allCases {
            lines.append("  " + bug.rawValue.padding(toLength: 24, withPad: " ", startingAt: 0) + bug.rule)
            lines.append("      " + bug.summary)
            lines.append("      spot it: " + bug.howToSpot)
        }
        lines.append("")
        lines.append("Silent bugs (--silent-bugs; notifytop explain gives each this reason):")
        for silent in SilentBug.allCases {
            lines.append("  " + silent.rawValue.padding(toLength: 24, withPad: " ", startingAt: 0) + silent.summary)
        }
        return lines.joined(separator: "\n")
    }
}
