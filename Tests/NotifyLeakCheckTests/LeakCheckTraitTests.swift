import Foundation
import NotifyKit
import NotifyLeakCheck
import Testing

private extension Notification.Name {
    static let orderDidShip = Notification.Name("orderDidShip")
}

/// The issues a known-issue block matched, gathered from whichever thread records them.
private final class Recorded: @unchecked Sendable {  // `lock` guards `list`
    private let lock = NSLock()
    private var list: [Issue] = []

    func append(_ issue: Issue) { lock.withLock { list.append(issue) } }
    var issues: [Issue] { lock.withLock { list } }
}

/// The `.leakCheck()` trait: each test gets its own center, checked around the whole test, and
/// every open finding becomes an issue naming its rule and site.
@Suite("The leakCheck trait")
struct LeakCheckTraitTests {
    @Test("a clean test passes, on a fresh center of its own (not the default one)", .leakCheck())
    func cleanTestPasses() {
        let center = LeakCheck.center
        #expect(center !== NotifyCenter.default)
        let token = center.addObserver(forName: .orderDidShip, object: nil, queue: nil) { _ in }
        center.post(name: .orderDidShip)
        token.cancel()
    }

    @Test("tests running at once each get their own center", .leakCheck(), arguments: 0..<8)
    func centersAreNotShared(index: Int) {
        let center = LeakCheck.center
        let token = center.addObserver(forName: .orderDidShip, object: nil, queue: nil) { _ in }
        center.post(name: .orderDidShip)
        token.cancel()
        #expect(center.label.hasPrefix("leak check: "))
    }

    @Test("a leaking test gets one error per open finding at the failing severity, naming rule, site and fix")
    func leakIsRecorded() async throws {
        let trait = LeakCheckTrait.leakCheck(failingAt: .error)
        let test = try #require(Test.current)
        let recorded = Recorded()
        try await withKnownIssue(isIntermittent: true) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                // A dropped token that keeps receiving: R1.
                _ = LeakCheck.center.addObserver(forName: .orderDidShip, object: nil, queue: nil) { _ in }
                LeakCheck.center.post(name: .orderDidShip)
            }
        } matching: { issue in
            recorded.append(issue)
            return true
        }
        let errors = recorded.issues.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(recorded.issues.map { String(describing: $0.comments) })")
        let text = errors.first.map { $0.comments.map(\.rawValue).joined() } ?? ""
        #expect(text.hasPrefix("R1 error: "), "\(text)")
        #expect(text.contains("LeakCheckTraitTests.swift"), "\(text)")
        #expect(text.contains("Fix: "), "\(text)")
    }
}
