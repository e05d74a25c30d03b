import Foundation
import NotifyKit
import NotifyLeakCheck
import NotifyTestSupport
import Testing

private extension Notification.Name {
    static let cartDidChange = Notification.Name("cartDidChange")
    static let stockDidChange = Notification.Name("stockDidChange")
}

/// Two screens that drop their tokens: each an R1 error at its own registration site.
private enum LeakyScreens {
    static let cartLine: UInt = #line + 2
    static func openCart(_ center: NotifyCenter) {
        _ = center.addObserver(forName: .cartDidChange, object: nil, queue: nil) { _ in }
    }

    static func openStock(_ center: NotifyCenter) {
        _ = center.addObserver(forName: .stockDidChange, object: nil, queue: nil) { _ in }
    }

    static func run(stock: Bool) -> LeakReport {
        let center = NotifyCenter()
        return LeakCheck.run(on: center) {
            openCart(center)
            if stock { openStock(center) }
            center.post(name: .cartDidChange)
            center.post(name: .stockDidChange)
        }
    }
}

@Suite("LeakReport.newFindings(against:)", .timeLimit(.minutes(10)))
struct NewFindingsTests {
    @Test("a finding listed in a baseline file in notifytop's format is known; one at another site is new")
    func baselineFileInNotifytopFormat() throws {
        // The file `notifytop baseline REC` writes for a run where only the cart screen leaked.
        let text = """
            {
              "notifytopBaseline" : 1,
              "signatures" : [
                {
                  "name" : "cartDidChange",
                  "rule" : "R1",
                  "site" : "NotifyLeakCheckTests/NewFindingsTests.swift:\(LeakyScreens.cartLine)"
                }
              ]
            }

            """
        let path = temporaryPath("known", suffix: ".json")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let known = try LeakBaseline(contentsOf: path)

        let before = LeakyScreens.run(stock: false)
        #expect(before.findings(atLeast: .error).map(\.rule) == ["R1"], "\(before)")
        #expect(before.newFindings(against: known).isEmpty, "\(before)")

        let after = LeakyScreens.run(stock: true)
        let new = after.newFindings(against: known)
        #expect(new.map(\.rule) == ["R1"], "\(after)")
        #expect(new.map(\.name) == ["stockDidChange"])
        #expect(after.findings(atLeast: .error).count == 2)
    }

    @Test("a baseline made from a report reads back from its file and knows every finding of that report")
    func baselineOfAReport() throws {
        let report = LeakyScreens.run(stock: true)
        let baseline = LeakBaseline(signatures: report.findings.map(\.signature))
        let path = temporaryPath("known", suffix: ".json")
        try baseline.json.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try LeakBaseline(contentsOf: path) == baseline)
        #expect(report.newFindings(against: baseline).isEmpty)
        #expect(
            report.newFindings(against: LeakBaseline(signatures: [])).count == report.findings(atLeast: .info).count)
    }

    @Test("the severity floor leaves out new findings below it")
    func severityFloor() {
        let report = LeakyScreens.run(stock: true)
        let empty = LeakBaseline(signatures: [])
        let all = report.newFindings(against: empty)
        let errors = report.newFindings(against: empty, atLeast: .error)
        #expect(errors.allSatisfy { $0.severity >= .error })
        #expect(errors.count == all.count { $0.severity >= .error })
    }

    @Test("a file that is not a baseline is refused, naming the file")
    func notABaseline() throws {
        let path = temporaryPath("known", suffix: ".json")
        try "{\"notifytopBaseline\": 2, \"signatures\": []}".write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try LeakBaseline(contentsOf: path)
        } throws: { error in
            "\(error)".hasPrefix(path + ": baseline version 2")
        }
    }
}
