import Foundation

/// A path no other test or run uses, in the temporary directory: `notifytop-<label>-<pid>-<random><suffix>`.
/// Nothing is created; the caller (or the code under test) makes the file or directory.
package func temporaryPath(_ label: String, suffix: String = "") -> String {
    NSTemporaryDirectory() + "notifytop-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))\(suffix)"
}

/// A temporary path removed with whatever it holds when released: hold it for the test's length.
package final class TemporaryDirectory {
    package let path: String

    package init(_ label: String = "test") { path = temporaryPath(label) }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
