import Foundation
import NotifyKit

/// Something that delivers a post of `name` to its handlers: a center, or the floor.
protocol Poster: Sendable {
    func post(_ name: Notification.Name)
}

/// A center the workloads drive the same way: block observers with queue nil, token removal,
/// `post(name:object: nil)`. Generic workloads are specialised per center, so the adapter costs nothing.
protocol BenchCenter: Poster {
    /// The column this center's results go in.
    static var column: Column { get }
    init()
    /// Registers `handler` for `name` on the posting thread and returns the token.
    func add(_ name: Notification.Name, _ handler: @escaping Handler) -> AnyObject
    /// Ends a registration with its token.
    func remove(_ token: AnyObject)
}

/// NotifyKit's `NotifyCenter`.
struct NotifyKitCenter: BenchCenter {
    static let column = Column.notifyKit
    let center = NotifyCenter(label: "bench")

    func add(_ name: Notification.Name, _ handler: @escaping Handler) -> AnyObject {
        center.addObserver(forName: name, object: nil, queue: nil, using: handler)
    }

    func remove(_ token: AnyObject) {
        center.removeObserver(token)
    }

    func post(_ name: Notification.Name) {
        center.post(name: name, object: nil)
    }
}

/// Foundation's `NotificationCenter`.
struct FoundationCenter: BenchCenter {
    static let column = Column.foundation
    let center = NotificationCenter()

    func add(_ name: Notification.Name, _ handler: @escaping Handler) -> AnyObject {
        center.addObserver(forName: name, object: nil, queue: nil, using: handler) as AnyObject
    }

    func remove(_ token: AnyObject) {
        center.removeObserver(token)
    }

    func post(_ name: Notification.Name) {
        center.post(name: name, object: nil)
    }
}

/// The names the workloads post and register on: short enough to be stored inline (no heap).
enum BenchNames {
    static let target = Notification.Name("bench.target")

    /// `count` distinct names, none equal to ``target``.
    static func others(_ count: Int) -> [Notification.Name] {
        (0..<count).map { Notification.Name("bench.o.\($0)") }
    }
}
