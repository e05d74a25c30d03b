import Foundation

/// A value behind an `NSLock` (a pthread mutex ThreadSanitizer understands), for the little state
/// the exporter shares with the app's threads.
final class Locked<Value>: @unchecked Sendable {  // `lock` guards `value`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func read<Result>(_ body: (Value) -> Result) -> Result {
        lock.withLock { body(value) }
    }

    @discardableResult
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
