import Foundation
import NotifyDemo
import NotifySystem
import NotifyTestSupport
import Testing

@Suite("The demo's typed messages")
struct TypedMessageTests {
    static let cartTotal = DemoName.cartTotalDidChange.string
    static let documentSaved = DemoName.documentSaved.string

    @Test("a typed message's name is its type's, as NotifyKit reports it")
    func namesAreTypeNames() {
        #expect(Self.cartTotal == "NotifyDemo.CartTotalDidChange")
        #expect(Self.documentSaved == "NotifyDemo.DocumentSaved")
    }

    @Test("the deterministic simulation registers and posts no typed message, so its order stays fixed")
    func simulationHasNoTypedMessages() {
        let run = RecordedDemoRun.record(DemoConfiguration(scenario: .steady, seed: 3), steps: 300)
        for name in [Self.cartTotal, Self.documentSaved] {
            #expect(run.truth.postsByName[name] == nil)
            #expect(run.truth.registrationsByName[name] == nil)
        }
    }

    @Test("live, both messages are posted and delivered, and every DocumentSaved has run before the truth")
    func liveTypedMessagesAreCounted() throws {
        let demo = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("notify-demo")
        try #require(FileManager.default.isExecutableFile(atPath: demo.path), "notify-demo is built beside the tests")
        let truthPath = temporaryPath("demo-messages", suffix: ".json")
        defer { unlink(truthPath) }
        let process = try ChildProcess.start([
            demo.path, "--scenario", "steady", "--rate", "1000", "--duration", "2", "--no-inspector", "--no-bugs",
            "--truth", truthPath,
        ])
        defer { process.terminate() }
        #expect(process.wait(timeoutMilliseconds: 120_000) == .exited(0), "the demo ends its 2 s run")
        let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: truthPath)))

        // CartTotalDidChange: the badge hears every post; open cart screens add their own.
        let totals = try #require(truth.postsByName[Self.cartTotal], "no CartTotalDidChange posted")
        #expect(totals > 0)
        #expect((truth.deliveriesByName[Self.cartTotal] ?? 0) >= totals)
        #expect((truth.registrationsByName[Self.cartTotal] ?? 0) >= 1)
        #expect((truth.liveRegistrationsByName[Self.cartTotal] ?? 0) >= 1)
        // Main-actor messages are posted and delivered on the main thread only.
        for thread in truth.threads where !thread.isMain {
            #expect(thread.postsByName[Self.cartTotal] == nil)
            #expect(thread.deliveriesByName[Self.cartTotal] == nil)
        }

        // DocumentSaved: one indexer, one delivery per save, on the task pool, never the main thread.
        let saves = try #require(truth.postsByName[Self.documentSaved], "no DocumentSaved posted")
        #expect(saves > 0)
        #expect(truth.deliveriesByName[Self.documentSaved] == saves)
        #expect(truth.registrationsByName[Self.documentSaved] == 1)
        #expect(truth.liveRegistrationsByName[Self.documentSaved] == 1)
        let mainDeliveries = truth.threads.filter(\.isMain).compactMap { $0.deliveriesByName[Self.documentSaved] }
        #expect(mainDeliveries.isEmpty)

        // SearchIndexDidUpdate: posted inside each indexer call, heard inline by the suggestions.
        let updated = DemoName.searchIndexDidUpdate.string
        #expect(truth.postsByName[updated] == saves)
        #expect(truth.deliveriesByName[updated] == saves)
        #expect(truth.registrationsByName[updated] == 1)
        #expect(truth.threads.filter(\.isMain).allSatisfy { $0.postsByName[updated] == nil })
    }
}
