import NotifyWire
import NotifyModel

/// How the views spell typed messages: `message·main`, `message·async`, `message·seq`.
enum MessageText {
    /// The kind of a message registration; nil for notification registrations.
    static func kind(_ kind: TraceRegistrationKind) -> String? {
        switch kind {
        case .mainActorMessage: "message·main"
        case .asyncMessage: "message·async"
        case .messageSequence: "message·seq"
        case .target, .block, .ownerBound, .sequence: nil
        }
    }

    /// A message type's kind in Names: `message·main`, `message·async`, or `message` while only
    /// sequences have seen it.
    static func kind(_ row: NameRow) -> String {
        switch row.messageKind {
        case .mainActor: "message·main"
        case .async: "message·async"
        case nil: "message"
        }
    }

    /// The Names cell: the type name marked with its kind, `NotifyDemo.CartTotalChanged [message·async]`.
    static func name(_ row: NameRow) -> String {
        row.isMessage ? row.name + " [" + kind(row) + "]" : row.name
    }

    /// Whether the registration queues messages (an async mailbox or a sequence buffer).
    static func queues(_ row: ObserverRow) -> Bool {
        row.kind == .asyncMessage || row.kind == .messageSequence
    }

    /// `3/8`: pending now and at most; `-` for registrations that queue nothing.
    static func pending(_ row: ObserverRow) -> String {
        queues(row) ? "\(row.pendingMessages)/\(row.maximumPendingMessages)" : "-"
    }
}
