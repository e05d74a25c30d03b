public import Foundation
import Synchronization

extension NotifyCenter {
    /// Foundation's protocol: a message type declared for `NotificationCenter` works with both centers.
    ///
    /// Observers of a `MainActorMessage` run on the main actor, synchronously inside `post`.
    public typealias MainActorMessage = NotificationCenter.MainActorMessage
    /// Foundation's protocol: `post` enqueues, and each observer runs later in its own serial task.
    public typealias AsyncMessage = NotificationCenter.AsyncMessage
    /// Foundation's protocol, so `extension NotifyCenter.MessageIdentifier where Self ==
    /// NotifyCenter.BaseMessageIdentifier<M>` declares identifiers usable with both centers.
    public typealias MessageIdentifier = NotificationCenter.MessageIdentifier
    /// Foundation's identifier struct.
    public typealias BaseMessageIdentifier = NotificationCenter.BaseMessageIdentifier

    /// The handle of one typed message registration.
    ///
    /// When the last copy goes away the registration ends (as in Foundation), so keep the token as
    /// long as the observation should last. Two tokens are equal only when they are copies of one
    /// another: equality and hash never change, even after removal.
    ///
    /// Probes see the registration end with reason `tokenCancelled` when the last copy goes away,
    /// `explicit` for `removeObserver(_:)`, `objectDeallocated`
    /// when a post finds its subject dead, and `sequenceEnded` for a `messages(…)` iterator.
    public struct ObservationToken: Hashable, Sendable {
        let handle: MessageTokenHandle

        /// A token of no registration: a removal or release of it does nothing.
        static var unregistered: ObservationToken {
            let handle = MessageTokenHandle(
                id: 0, entry: MessageRegistry.Entry(key: ObjectIdentifier(ObservationToken.self)), link: CenterLink())
            handle.ended.store(true, ordering: .relaxed)
            return ObservationToken(handle: handle)
        }

        public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool {
            lhs.handle === rhs.handle
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(handle))
        }
    }

    /// Ends a typed message registration.
    ///
    /// Calling it again, or with a token of another center, does nothing. Observers of an
    /// `AsyncMessage` receive nothing more: messages already queued for them are discarded, and a
    /// call already running finishes.
    public func removeObserver(_ token: ObservationToken, file: StaticString = #fileID, line: UInt = #line) {
        let handle = token.handle
        guard handle.link === link else { return }
        if endMessageRegistration(
            id: handle.id, in: handle.entry, reason: .explicit, callsite: ProbeEvent.Callsite(file: file, line: line))
        {
            handle.ended.store(true, ordering: .relaxed)
        }
    }

    /// The token of `registration`, which is in `entry`.
    func makeToken(for registration: MessageRegistration, in entry: MessageRegistry.Entry) -> ObservationToken {
        ObservationToken(handle: MessageTokenHandle(id: registration.id, entry: entry, link: link))
    }
}

/// What every copy of an ``NotifyCenter/ObservationToken`` shares; ends the registration when the
/// last copy goes away.
final class MessageTokenHandle: Sendable {
    let id: UInt64
    /// The registry entry of the registration's message type, in the center of `link`.
    let entry: MessageRegistry.Entry
    let link: CenterLink
    let ended = Atomic<Bool>(false)

    init(id: UInt64, entry: MessageRegistry.Entry, link: CenterLink) {
        self.id = id
        self.entry = entry
        self.link = link
    }

    deinit {
        guard !ended.load(ordering: .relaxed) else { return }
        // Released, not cancelled: the token ended it with no call, so no site (a trace tells it
        // from a `cancel()` by that).
        link.center?.endMessageRegistration(id: id, in: entry, reason: .tokenCancelled)
    }
}
