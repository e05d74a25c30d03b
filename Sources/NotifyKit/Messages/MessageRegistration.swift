public import Foundation
import NotifySystem
import Synchronization

/// One typed message observation: its message type, subject filter and kind. Subclasses, generic
/// over the message type, hold the handler, so posting calls it with no boxing or casting.
@usableFromInline
class MessageRegistration: @unchecked Sendable {  // immutable fields plus atomics; `id` is set before it is shared
    /// Set under the center's lock before the registration is inserted, then never changed.
    @exclusivity(unchecked) var id: UInt64
    /// `ObjectIdentifier` of the message type: the registry's key.
    let key: ObjectIdentifier
    let messageType: any Any.Type
    /// The subject filter, compared by identity and held weakly; nil when the filter died or for any.
    weak let subject: AnyObject?
    /// The subject filter's address, 0 for any subject.
    let subjectKey: UInt
    let kind: ProbeEvent.RegistrationKind
    /// Cleared when the registration ends; checked just before every callout.
    let isActive = Atomic<Bool>(true)
    let file: StaticString
    let line: UInt
    let registeredAt: UInt64
    /// ``NotifyThread/id`` of the thread that made it.
    let registeringThread: UInt64
    /// Deliveries no probe saw; counted as ``Registration/deliveries`` is.
    let deliveries = Atomic<UInt64>(0)
    /// ``ObjectSerials`` number of the subject filter, set under the center's lock at insertion.
    var subjectSerial: UInt64 = 0

    init(
        id: UInt64, messageType: any Any.Type, subject: AnyObject?, kind: ProbeEvent.RegistrationKind,
        file: StaticString, line: UInt
    ) {
        self.id = id
        self.key = ObjectIdentifier(messageType)
        self.messageType = messageType
        self.subject = subject
        self.subjectKey = subject.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0
        self.kind = kind
        self.file = file
        self.line = line
        let context = ThreadContext.currentUnretained
        self.registeredAt = context._withUnsafeGuaranteedRef { $0.stamp() }
        self.registeringThread = context._withUnsafeGuaranteedRef { $0.thread.id }
    }

    /// Counts one delivery no probe saw.
    @inline(__always)
    final func countDelivery() {
        deliveries.store(deliveries.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    var hasSubjectFilter: Bool { subjectKey != 0 }

    var target: ProbeEvent.TargetKind { kind == .asyncMessage || kind == .messageSequence ? .task : .posting }

    var callsite: ProbeEvent.Callsite { ProbeEvent.Callsite(file: file, line: line) }

    /// One line of the center's `debugDescription`.
    var debugLine: String {
        let subjectText =
            subject.map { ProbeEvent.ObjectRef($0, serial: subjectSerial).description }
            ?? (hasSubjectFilter ? "<deallocated>" : "*")
        return [
            "#\(id)", TypeNames.name(of: messageType), "subject: \(subjectText)", kind.rawValue,
            "on \(target.rawValue)",
            "at \(callsite)",
        ].joined(separator: "  ")
    }

    /// Stops deliveries; subclasses also let go of what is queued. Called once, after removal from
    /// the registry, with no lock held.
    func deactivate() {
        isActive.store(false, ordering: .releasing)
    }
}

/// A `MainActorMessage` observer: runs inside `post`, on the main actor.
///
/// Made by code inlined into the app, where the class's type metadata for the app's message type
/// is a cached constant: generic code in this module would look it up on every registration.
@usableFromInline
final class MainActorMessageObserver<Message: NotifyCenter.MainActorMessage>: MessageRegistration, @unchecked Sendable {
    let handler: @MainActor (Message) -> Void

    /// An observer with no id yet: ``NotifyCenter/addMessageObserver(_:)`` gives it one.
    @usableFromInline
    init(subject: AnyObject?, handler: @escaping @MainActor (Message) -> Void, file: StaticString, line: UInt) {
        self.handler = handler
        super.init(id: 0, messageType: Message.self, subject: subject, kind: .mainActorMessage, file: file, line: line)
    }
}
