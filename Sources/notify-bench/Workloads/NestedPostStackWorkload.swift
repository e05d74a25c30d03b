import Foundation
import NotifyKit

/// How much stack a post made from inside a handler costs, untraced and with a recorder attached:
/// an app with a viewer must nest as deep as without one. Deterministic for a given build.
struct NestedPostStackWorkload: Workload {
    static let rowName = "stack per nested post, recorder attached − none"
    var rowNames: [String] { [Self.rowName] }

    func run(_ options: BenchOptions) throws -> [Row] {
        guard options.selects(Self.rowName) else { return [] }
        progress(Self.rowName)
        let untraced = try Self.bytesPerLevel(traced: false)
        let traced = try Self.bytesPerLevel(traced: true)
        var row = Row(Self.rowName)
        row.notifyKit = .bytes(Double(traced - untraced))
        row.floor = .bytes(Double(untraced))
        row.expectDeterministic("≤ 1 KiB added (floor column: untraced)", traced - untraced <= 1_024)
        return [row]
    }

    final class Nesting: @unchecked Sendable {  // used by the posting thread only
        var addresses: [UInt] = []
        var depth = 0
    }

    /// Bytes between the stack frames of two handlers 100 nested posts apart, divided by 100.
    static func bytesPerLevel(traced: Bool) throws -> Int {
        let center = NotifyCenter()
        let name = Notification.Name("notify-bench.nested")
        let nesting = Nesting()
        let levels = 200
        let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in
            var marker = nesting.depth
            withUnsafeMutablePointer(to: &marker) { nesting.addresses.append(UInt(bitPattern: $0)) }
            nesting.depth += 1
            if nesting.depth < levels { center.post(name: name) }
        }
        let drainer = traced ? BackgroundDrainer() : nil
        let attachment = drainer.map { center.attach($0.recorder) }
        center.post(name: name)
        attachment?.detach()
        _ = drainer?.stop()
        withExtendedLifetime(token) {}
        guard nesting.addresses.count == levels else {
            throw DeliveryMismatch(
                benchmark: rowName, center: "NotifyKitCenter",
                detail: "\(nesting.addresses.count) of \(levels) nested handlers ran")
        }
        return (Int(nesting.addresses[10]) - Int(nesting.addresses[110])) / 100
    }
}
