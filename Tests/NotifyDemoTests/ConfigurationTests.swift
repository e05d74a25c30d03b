import NotifyDemo
import Testing

@Suite("Scenarios, bug lists and pacing")
struct ConfigurationTests {
    @Test("--bugs parses names, all and none, and rejects unknown names")
    func parsesBugLists() throws {
        #expect(try DemoConfiguration.parseBugs("typo-post,dropped-token") == [.droppedToken, .typoPost])
        #expect(try DemoConfiguration.parseBugs("all") == DemoBug.allCases)
        #expect(try DemoConfiguration.parseBugs("none").isEmpty)
        #expect(throws: DemoConfigurationError.unknownBug("leak")) { try DemoConfiguration.parseBugs("leak") }
    }

    @Test("each bug names exactly one rule, and the rules R1 to R10 are all covered")
    func everyRuleCovered() {
        let rules = Set(DemoBug.allCases.map { $0.rule.split(separator: " ").first.map(String.init) ?? "" })
        #expect(rules == Set((1...10).map { "R\($0)" }))
    }

    @Test("scenario defaults: stress is unpaced and clean, quiet is clean, steady plants everything")
    func scenarioDefaults() {
        #expect(DemoConfiguration(scenario: .stress).rate == nil)
        #expect(DemoConfiguration(scenario: .stress).bugs.isEmpty)
        #expect(DemoConfiguration(scenario: .quiet).bugs.isEmpty)
        #expect(DemoConfiguration(scenario: .steady).bugs == DemoBug.allCases)
        #expect(DemoConfiguration(scenario: .steady, rate: 50).rate == 50)
    }

    @Test("burst averages the nominal rate over its 5 s period")
    func burstAverages() {
        #expect(DemoScenario.burst.allowance(after: 5) == 5)
        #expect(DemoScenario.burst.allowance(after: 4) == 1)
        #expect(DemoScenario.steady.allowance(after: 3) == 3)
    }

    @Test("--list-scenarios names every scenario, every bug and every silent bug")
    func catalogListsEverything() {
        let text = DemoCatalog.text
        for scenario in DemoScenario.allCases { #expect(text.contains(scenario.rawValue)) }
        for bug in DemoBug.allCases { #expect(text.contains(bug.rawValue)) }
        for silent in SilentBug.allCases { #expect(text.contains(silent.summary)) }
    }
}
