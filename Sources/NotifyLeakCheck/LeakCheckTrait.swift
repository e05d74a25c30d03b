#if canImport(Testing)
public import NotifyKit
public import NotifyModel
public import Testing

extension LeakCheck {
    /// The center of the running test when it has the ``LeakCheckTrait`` (`.leakCheck()`): a
    /// fresh one per test, so tests running in parallel never see each other's events.
    /// `NotifyCenter.default` elsewhere.
    @TaskLocal public static var center: NotifyCenter = .default
}

/// Checks a test for notification leaks: the test gets a fresh center (``LeakCheck/center``),
/// checked around the whole test as ``LeakCheck/run(on:configuration:isolation:_:)`` checks a
/// block, and each open finding is recorded as an issue naming its rule and site: an error at or
/// above the severity the trait fails at, a warning below it.
///
/// ```swift
/// @Test(.leakCheck(failingAt: .error))
/// func closingTheCartRemovesItsObservers() {
///     let screen = CartScreen(center: LeakCheck.center)
///     screen.close()
/// }
/// ```
public struct LeakCheckTrait: TestTrait, SuiteTrait, TestScoping {
    /// Findings at this severity or worse fail the test.
    public var failingAt: LeakSeverity
    /// The model's thresholds.
    public var configuration: InspectorConfiguration

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's scope is its tests': each gets its own center.
        guard testCase != nil || !test.isSuite else { return try await function() }
        let center = NotifyCenter(label: "leak check: " + test.name)
        let report = try await LeakCheck.$center.withValue(center) {
            try await LeakCheck.run(on: center, configuration: configuration) { try await function() }
        }
        for finding in report.findings(atLeast: .info) {
            let severity: Issue.Severity = finding.severity >= failingAt ? .error : .warning
            Issue.record(
                Comment(rawValue: LeakCheckMessage.text(finding)), severity: severity,
                sourceLocation: test.sourceLocation)
        }
        if report.droppedEvents > 0 {
            Issue.record(
                "leak check: \(report.droppedEvents) events dropped; the findings may be incomplete",
                severity: .warning, sourceLocation: test.sourceLocation)
        }
    }
}

extension Trait where Self == LeakCheckTrait {
    /// Checks the test for notification leaks on a fresh ``LeakCheck/center``; findings at
    /// `failingAt` or worse fail it, lesser ones are recorded as warnings.
    public static func leakCheck(
        failingAt: LeakSeverity = .error, configuration: InspectorConfiguration = InspectorConfiguration()
    ) -> Self {
        LeakCheckTrait(failingAt: failingAt, configuration: configuration)
    }
}
#endif
