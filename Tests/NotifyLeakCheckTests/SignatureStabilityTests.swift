import NotifyDemo
import NotifyKit
import NotifyLeakCheck
import NotifyTestSupport
import Testing

/// A finding's signature names what the code says (rule, name, site, owner type), so two runs of
/// the same program give the same signatures though every object lives at another address.
@Suite("Signatures are stable across runs")
struct SignatureStabilityTests {
    /// Two runs of the demo with its planted bugs, the first one's objects kept alive during the
    /// second, so no object of the second can reuse an address of the first.
    static func twoRuns() -> (first: LeakReport, second: LeakReport) {
        onDedicatedThread {
            let firstCenter = NotifyCenter(label: "first")
            // Each app outlives its check, as in the other run: its release would drop tokens.
            var kept: [DemoSimulation] = []
            let first = LeakCheck.run(on: firstCenter) { kept.append(runDemo(on: firstCenter, seed: 5)) }
            let secondCenter = NotifyCenter(label: "second")
            let second = LeakCheck.run(on: secondCenter) { kept.append(runDemo(on: secondCenter, seed: 5)) }
            withExtendedLifetime(kept) {}
            return (first, second)
        }
    }

    @Test("two runs of the demo: different observer addresses, the same signatures")
    func sameSignaturesAtOtherAddresses() throws {
        let (first, second) = Self.twoRuns()
        let addresses = { (report: LeakReport) in
            Set(report.findings.compactMap { $0.finding.evidence.observer?.address })
        }
        try #require(!addresses(first).isEmpty, "no finding names an observer: \(first)")
        #expect(addresses(first).isDisjoint(with: addresses(second)))
        let signatures = { (report: LeakReport) in Set(report.findings.map(\.signature)) }
        #expect(signatures(first).count >= 8, "\(first)")
        #expect(
            signatures(first) == signatures(second),
            "only first: \(signatures(first).subtracting(signatures(second))); only second: \(signatures(second).subtracting(signatures(first)))"
        )
        // No trace id or address leaks into a signature.
        for signature in signatures(first) {
            #expect(!signature.description.contains("0x") && !signature.description.contains("#"), "\(signature)")
        }
    }

    @Test("a signature names rule, name, site and owner type; a name-keyed finding only rule and name")
    func signatureParts() throws {
        let (first, _) = Self.twoRuns()
        let orphan = try #require(first.findings.first { $0.rule == "R1" })
        #expect(orphan.signature.rule == .orphanedRegistration)
        #expect(orphan.signature.name == orphan.name)
        #expect(orphan.signature.site == orphan.site && orphan.site != nil)
        let selfRetaining = try #require(first.findings.first { $0.rule == "R4" })
        #expect(selfRetaining.signature.ownerType?.isEmpty == false)
        let unheard = try #require(first.findings.first { $0.rule == "R9" })
        #expect(unheard.signature.site == nil && unheard.signature.ownerType == nil)
        #expect(unheard.signature.description == "R9 \"\(unheard.name ?? "")\"")
    }
}
