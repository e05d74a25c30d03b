/// The eleven warning rules R1–R11, each with its identifier and one-line fix.
///
/// Why an enum with the fix built in: every finding must be actionable without documentation
/// ("always visible: rule ID and a one-line fix"), and tests assert on rule identity, not text.
public enum LeakRule: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// R1: a token was dropped while its registration was still live.
    case orphanedRegistration = "R1"
    /// R2: observation ended before it could matter.
    case prematureRemoval = "R2"
    /// R3: the observer or the object filter deallocated while registered.
    case deadParticipant = "R3"
    /// R4: the handler keeps its own observer alive.
    case selfRetainingHandler = "R4"
    /// R5: the same observer registered again for the same thing.
    case duplicateRegistration = "R5"
    /// R6: registrations keep accumulating.
    case registrationGrowth = "R6"
    /// R7: a handler (or a post's handlers together) blocks the poster.
    case slowHandler = "R7"
    /// R8: delivery on the wrong thread.
    case threadMismatch = "R8"
    /// R9: a name posted with no observers, possibly a typo.
    case unheardPost = "R9"
    /// R10: an observer waits for a name nobody posts.
    case neverPosted = "R10"
    /// R11: a removal ended nothing: the token is another center's, or was removed already.
    case missedRemoval = "R11"

    /// `"R1"` … `"R11"`.
    public var code: String { rawValue }

    /// The taxonomy's name, such as `ORPHANED_REGISTRATION`.
    public var title: String {
        switch self {
        case .orphanedRegistration: "ORPHANED_REGISTRATION"
        case .prematureRemoval: "PREMATURE_REMOVAL"
        case .deadParticipant: "DEAD_PARTICIPANT"
        case .selfRetainingHandler: "SELF_RETAINING_HANDLER"
        case .duplicateRegistration: "DUPLICATE_REGISTRATION"
        case .registrationGrowth: "REGISTRATION_GROWTH"
        case .slowHandler: "SLOW_HANDLER"
        case .threadMismatch: "THREAD_MISMATCH"
        case .unheardPost: "UNHEARD_POST"
        case .neverPosted: "NEVER_POSTED"
        case .missedRemoval: "MISSED_REMOVAL"
        }
    }

    /// What to change in the app, in one line.
    public var fix: String {
        switch self {
        case .orphanedRegistration:
            "Keep the token in a property and cancel it in deinit (SwiftLint discarded_notification_center_observer)."
        case .prematureRemoval:
            "Store the token; register in init and remove in deinit, or refresh state when the screen reappears."
        case .deadParticipant:
            "Remove in the owner's deinit, use owner-bound registrations, or filter on a stable id, not an object."
        case .selfRetainingHandler:
            "Capture [weak self] and don't pass self.method as the handler; or use observe(_:owner:), which passes it."
        case .duplicateRegistration:
            "Register once in init, or remove before re-adding; pair add and remove in symmetric lifecycle methods."
        case .registrationGrowth:
            "Remove the registration when its screen or unit goes away; fix setup code that runs more than once."
        case .slowHandler:
            "Move the work off the posting thread, or debounce or coalesce it; a queue does not make post async."
        case .threadMismatch:
            "Post on the required thread, or register with deliverOn: .main so the handler hops to main."
        case .unheardPost:
            "Use a shared Notification.Name constant instead of a string literal; check the spelling."
        case .neverPosted:
            "Observe the poster's exported constant, on the center it posts to; check bridged names against the Objective-C constant."
        case .missedRemoval:
            "Remove a token once, from the center that added it; remove a block observer by its token, not its owner."
        }
    }

    /// `"R1 ORPHANED_REGISTRATION"`.
    public var description: String { "\(code) \(title)" }

    /// Orders by rule number, so R10 sorts after R9.
    public static func < (lhs: LeakRule, rhs: LeakRule) -> Bool {
        lhs.number < rhs.number
    }

    /// 1 … 11.
    public var number: Int {
        switch self {
        case .orphanedRegistration: 1
        case .prematureRemoval: 2
        case .deadParticipant: 3
        case .selfRetainingHandler: 4
        case .duplicateRegistration: 5
        case .registrationGrowth: 6
        case .slowHandler: 7
        case .threadMismatch: 8
        case .unheardPost: 9
        case .neverPosted: 10
        case .missedRemoval: 11
        }
    }

    /// Hashes the rule's number, not its raw string: finding keys and rule sets are looked up per event.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
    }

    /// The rule's bit in a set of rules kept as a mask.
    var bit: UInt16 { 1 << UInt16(number - 1) }
}
