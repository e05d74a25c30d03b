public import NotifyKit
public import NotifyModel
// Only what a test passes to a check and reads from its report is re-exported, not the model behind it.
@_exported public import struct NotifyModel.InspectorConfiguration
@_exported public import struct NotifyModel.LeakFinding
@_exported public import struct NotifyModel.LeakFindingKey
@_exported public import enum NotifyModel.LeakSubject
@_exported public import struct NotifyModel.LeakEvidence
@_exported public import enum NotifyModel.LeakRule
@_exported public import enum NotifyModel.LeakSeverity
@_exported public import struct NotifyModel.LeakSignature

/// Runs notifytop's leak rules over what a block of code does to a notification center, in the
/// test process: the assertion a unit test makes about observers.
///
/// ```swift
/// let report = LeakCheck.run(on: center) {
///     let screen = CartScreen(center: center)
///     screen.close()
///     center.checkpoint("cart closed")
/// }
/// #expect(report.findings(atLeast: .error).isEmpty, "\(report)")
/// ```
///
/// A probe is attached to the center for the block only; what the block did (registrations in
/// place before it included) is folded through the same model as notifytop, so the findings equal
/// the dashboard's for the same events. The center's checkpoints in the block are the rules' "test
/// steps", as in an app (R6 compares registrations at each, R10 counts waits).
public enum LeakCheck {
    /// Runs `body` with `center` observed and returns the leak findings of what it did.
    ///
    /// - Parameters:
    ///   - center: The center the code under test uses.
    ///   - configuration: The model's thresholds; notifytop's defaults unless given.
    ///   - body: The code under test; an error it throws is rethrown and no report is made.
    public static func run(
        on center: NotifyCenter, configuration: InspectorConfiguration = InspectorConfiguration(),
        _ body: () throws -> Void
    ) rethrows -> LeakReport {
        let session = LeakCheckSession(center: center)
        defer { session.detach() }
        try body()
        return session.report(configuration: configuration)
    }

    /// Runs the asynchronous `body` with `center` observed and returns the leak findings of what it did.
    ///
    /// Events from tasks the body starts count when they happen before the body returns.
    public static func run(
        on center: NotifyCenter, configuration: InspectorConfiguration = InspectorConfiguration(),
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async rethrows -> LeakReport {
        let session = LeakCheckSession(center: center)
        defer { session.detach() }
        try await body()
        return session.report(configuration: configuration)
    }
}
