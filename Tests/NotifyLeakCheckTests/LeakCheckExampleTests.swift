import Foundation
import NotifyKit
import NotifyLeakCheck
import Testing

private extension Notification.Name {
    static let cartDidChange = Notification.Name("cartDidChange")
}

/// A screen that forgets its observer: the block's token is dropped, so the block runs forever.
private final class LeakyCartScreen {
    init(center: NotifyCenter) {
        _ = center.addObserver(forName: .cartDidChange, object: nil, queue: nil) { _ in }
    }
}

/// The same screen keeping its token and cancelling it when it goes away.
private final class CartScreen {
    private var token: NotifyToken?

    init(center: NotifyCenter) {
        token = center.observe(.cartDidChange, owner: self) { screen, _ in screen.refresh() }
    }

    func refresh() {}

    func close() { token?.cancel() }
}

/// The example the documentation shows: a leak check as a Swift Testing test.
@Suite("LeakCheck in a Swift Testing test")
struct LeakCheckExampleTests {
    @Test("a dropped token that keeps receiving is an R1 error, printed with its evidence and fix")
    func droppedTokenIsAnError() {
        let center = NotifyCenter()
        let report = LeakCheck.run(on: center) {
            _ = LeakyCartScreen(center: center)
            center.post(name: .cartDidChange)
        }
        let errors = report.findings(atLeast: .error)
        #expect(errors.map(\.rule) == ["R1"], "\(report)")
        let finding = errors.first
        #expect(finding?.name == "cartDidChange")
        #expect(finding?.site?.hasPrefix("NotifyLeakCheckTests/LeakCheckExampleTests.swift:") == true)
        #expect(finding?.summary.contains("released while registered") == true)
        let text = report.description
        #expect(text.hasPrefix("leak check: 1 error"), "\(text)")
        #expect(text.contains("R1 ORPHANED_REGISTRATION error \"cartDidChange\" NotifyLeakCheckTests/"), "\(text)")
        #expect(text.contains("    deliveries after  1"), "\(text)")
        #expect(text.contains("  Fix\n    " + LeakRule.orphanedRegistration.fix), "\(text)")
    }

    @Test("a screen that keeps and cancels its token leaves no finding")
    func cleanScreenHasNoFinding() {
        let center = NotifyCenter()
        let report = LeakCheck.run(on: center) {
            let screen = CartScreen(center: center)
            center.post(name: .cartDidChange)
            screen.close()
        }
        #expect(report.findings.isEmpty, "\(report)")
        #expect(report.description == "leak check: no open findings")
    }

    @Test("checkpoints in the block are the growth rule's test steps, as in an app")
    func checkpointsDriveGrowth() {
        let center = NotifyCenter()
        let owner = NSObject()
        var kept: [NotifyToken] = []
        let report = LeakCheck.run(on: center) {
            for _ in 0..<6 {
                // Each "appear" adds a registration and none is ever removed.
                kept.append(center.observe(.cartDidChange, owner: owner) { _, _ in })
                center.post(name: .cartDidChange)
                center.checkpoint("cart screen closed")
            }
        }
        #expect(report.findings.contains { $0.rule == "R6" && $0.name == "cartDidChange" }, "\(report)")
        kept.forEach { $0.cancel() }
        kept = []
        let withoutCheckpoints = LeakCheck.run(on: center) {
            for _ in 0..<6 { kept.append(center.observe(.cartDidChange, owner: owner) { _, _ in }) }
        }
        #expect(!withoutCheckpoints.findings.contains { $0.rule == "R6" }, "\(withoutCheckpoints)")
        kept.forEach { $0.cancel() }
    }

    @Test("the async overload sees what awaited work did before the block returned")
    func asyncBlock() async {
        let center = NotifyCenter()
        let report = await LeakCheck.run(on: center) {
            await Task.detached {
                _ = center.addObserver(forName: .cartDidChange, object: nil, queue: nil) { _ in }
            }.value
            center.post(name: .cartDidChange)
        }
        #expect(report.findings(atLeast: .error).map(\.rule) == ["R1"], "\(report)")
    }

    @Test("a block that throws rethrows, and the probe is detached")
    func throwingBlock() {
        struct Failure: Error {}
        let center = NotifyCenter()
        #expect(throws: Failure.self) {
            _ = try LeakCheck.run(on: center) { throw Failure() }
        }
        #expect(!center.isProbed)
    }
}
