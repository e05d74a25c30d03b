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
final class AsyncGate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
