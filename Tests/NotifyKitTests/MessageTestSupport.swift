import Foundation
import NotifyKit
import Synchronization

// Typed messages shared by the Message* suites, declared the way Foundation code declares them.

typealias MessageSubject = Subject

/// A main-actor message about a subject.
struct Tapped: NotifyCenter.MainActorMessage {
    typealias Subject = MessageSubject
    var value: Int
}

extension NotifyCenter.MessageIdentifier where Self == NotifyCenter.BaseMessageIdentifier<Tapped> {
    static var tapped: Self { .init() }
}

/// A second main-actor message type, to show types never reach each other's observers.
struct Scrolled: NotifyCenter.MainActorMessage {
    typealias Subject = MessageSubject
}

/// An async message about a subject.
struct Synced: NotifyCenter.AsyncMessage {
    typealias Subject = MessageSubject
    var value: Int
}

extension NotifyCenter.MessageIdentifier where Self == NotifyCenter.BaseMessageIdentifier<Synced> {
    static var synced: Self { .init() }
}

/// An identifier declared against Foundation's own protocol: it must work with NotifyCenter too.
struct Saved: NotificationCenter.AsyncMessage {
    typealias Subject = MessageSubject
    var value: Int
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<Saved> {
    static var saved: Self { .init() }
}

/// A gate an async observer waits at until the test opens it.
final class AsyncGate: @unchecked Sendable {  // `isOpen` and `waiters` are guarded by `lock`
    // NSLock, not Mutex: ThreadSanitizer sees a pthread mutex's ordering, not a futex's.
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            let resumeNow = isOpen
            if !resumeNow { waiters.append(continuation) }
            lock.unlock()
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        lock.lock()
        isOpen = true
        let waiting = waiters
        waiters = []
        lock.unlock()
        for waiter in waiting { waiter.resume() }
    }
}
