import Foundation
import NotifyKit
import NotifyLeakCheck
import XCTest

private extension Notification.Name {
    static let invoiceDidPay = Notification.Name("invoiceDidPay")
}

/// The XCTest assertion: one failure per open finding at the failing severity, none for clean
/// code. Failures are captured rather than reported, to be checked.
final class XCTAssertNoNotificationLeaksTests: XCTestCase {
    private var failures: [String] = []
    private var capturing = false

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if capturing {
            failures.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testCleanCodePasses() {
        let center = NotifyCenter()
        capturing = true
        let report = XCTAssertNoNotificationLeaks(on: center) {
            let token = center.addObserver(forName: .invoiceDidPay, object: nil, queue: nil) { _ in }
            center.post(name: .invoiceDidPay)
            token.cancel()
        }
        capturing = false
        XCTAssertEqual(failures, [])
        XCTAssertTrue(report.findings(atLeast: .error).isEmpty)
    }

    func testALeakFailsOnceNamingRuleSiteAndFix() {
        let center = NotifyCenter()
        capturing = true
        XCTAssertNoNotificationLeaks(on: center) {
            _ = center.addObserver(forName: .invoiceDidPay, object: nil, queue: nil) { _ in }
            center.post(name: .invoiceDidPay)
        }
        capturing = false
        XCTAssertEqual(failures.count, 1, "\(failures)")
        let failure = failures.first ?? ""
        XCTAssertTrue(failure.contains("R1 error: "), failure)
        XCTAssertTrue(failure.contains("XCTAssertNoNotificationLeaksTests.swift"), failure)
        XCTAssertTrue(failure.contains("Fix: "), failure)
    }
}
