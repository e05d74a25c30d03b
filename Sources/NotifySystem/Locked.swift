import Foundation

/// A value behind an `NSLock` (a pthread mutex ThreadSanitizer understands), for the little state
/// the exporter shares with the app's threads.
package final class Locked<Value>: @unchecked Sendable {  // `lock` guards `value`
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func read<Result>(_ body: (Value) -> Result) -> Result {
        lock.withLock { body(value) }
    }

    @discardableResult
    package func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
