#if canImport(XCTest)
public import NotifyKit
public import NotifyModel
import XCTest

/// Asserts that `body` leaves no notification leak on `center`: runs it as
/// ``LeakCheck/run(on:configuration:_:)`` does and fails the test once per open finding at
/// `failingAt` or worse, naming its rule, site and fix. Returns the report for further checks.
///
/// ```swift
/// func testClosingTheCartRemovesItsObservers() {
///     let center = NotifyCenter()
///     XCTAssertNoNotificationLeaks(on: center) {
///         CartScreen(center: center).close()
///     }
/// }
/// ```
@discardableResult
public func XCTAssertNoNotificationLeaks(
    on center: NotifyCenter, failingAt: LeakSeverity = .error,
    configuration: InspectorConfiguration = InspectorConfiguration(), file: StaticString = #filePath,
    line: UInt = #line, _ body: () throws -> Void
) rethrows -> LeakReport {
    let report = try LeakCheck.run(on: center, configuration: configuration, body)
    for finding in report.findings(atLeast: failingAt) {
        XCTFail(LeakCheckMessage.text(finding), file: file, line: line)
    }
    return report
}
#endif
