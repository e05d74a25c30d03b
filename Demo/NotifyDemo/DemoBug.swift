/// The observer bugs the demo can plant, each switchable by name and each built to match exactly
/// one warning rule R1–R10 (`LeakRule`), so notifytop's findings can be checked against them.
///
/// Each bug sits in the type that carries it, next to the clean code path it replaces; the types
/// are listed in `Demo/README.md`.
package enum DemoBug: String, CaseIterable, Sendable, Codable, Comparable {
    /// A tab builds a new view model on every appear and keeps the old ones; each registers.
    case reappearLeak = "reappear-leak"
    /// A screen subscribes in `init` and again in `viewDidLoad`: two identical registrations.
    case doubleRegister = "double-register"
    /// A screen subscribes in `init`, then again with a call of its own in `viewDidLoad`: the same
    /// owner twice for one name from two callsites.
    case splitRegister = "split-register"
    /// A tab removes its observer when it disappears and re-adds it when it appears, missing posts.
    case earlyRemove = "early-remove"
    /// A block registration whose token is thrown away at once.
    case droppedToken = "dropped-token"
    /// An owner-bound handler that captures its owner, so the registration keeps the owner alive.
    case selfCapture = "self-capture"
    /// A toast registers target–action and is dismissed without removing; the center purges it.
    case deallocWithoutRemove = "dealloc-without-remove"
    /// An autosave watch filtered on a document that is closed while the watch stays registered.
    case deadSender = "dead-sender"
    /// A main-thread handler that renders synchronously for longer than a frame budget allows.
    case slowMainHandler = "slow-main-handler"
    /// A background sync posts a UI name directly into main-thread-only observers.
    case backgroundToMain = "background-to-main"
    /// A post with a misspelt name that nobody observes.
    case typoPost = "typo-post"
    /// An observer for a name nothing posts any more.
    case neverPosted = "never-posted"

    /// The warning rule the bug triggers, as notifytop's `LeakRule` names it.
    package var rule: String {
        switch self {
        case .droppedToken: "R1 ORPHANED_REGISTRATION"
        case .earlyRemove: "R2 PREMATURE_REMOVAL"
        case .deallocWithoutRemove, .deadSender: "R3 DEAD_PARTICIPANT"
        case .selfCapture: "R4 SELF_RETAINING_HANDLER"
        case .doubleRegister, .splitRegister: "R5 DUPLICATE_REGISTRATION"
        case .reappearLeak: "R6 REGISTRATION_GROWTH"
        case .slowMainHandler: "R7 SLOW_HANDLER"
        case .backgroundToMain: "R8 THREAD_MISMATCH"
        case .typoPost: "R9 UNHEARD_POST"
        case .neverPosted: "R10 NEVER_POSTED"
        }
    }

    /// The notification name the bug lives on: the name its rule's warning must be about.
    package var name: DemoName {
        switch self {
        case .reappearLeak: .sessionDidChange
        case .doubleRegister: .themeDidChange
        case .splitRegister: .cartDidChange
        case .earlyRemove: .messageDidArrive
        case .droppedToken: .appWillResignActive
        case .selfCapture: .themeDidChange
        case .deallocWithoutRemove: .screenDidAppear
        case .deadSender: .documentDidSave
        case .slowMainHandler: .themeDidChange
        case .backgroundToMain: .cartDidChange
        case .typoPost: .sessionDidChangeTypo
        case .neverPosted: .premiumStatusDidChange
        }
    }

    /// One line on what the app does wrong.
    package var summary: String {
        switch self {
        case .reappearLeak: "ProfileScreen builds a new ProfileBadgeModel on every appear and keeps the old ones"
        case .doubleRegister: "SettingsScreen subscribes to ThemeDidChange in init and again in viewDidLoad"
        case .splitRegister:
            "CartScreen observes CartDidChange in init and again, from another line, in viewDidLoad"
        case .earlyRemove: "InboxScreen removes its MessageDidArrive observer on disappear and re-adds it on appear"
        case .droppedToken: "CrashReporter registers an AppWillResignActive block and discards the token"
        case .selfCapture: "WhatsNewBanner's ThemeDidChange handler captures the banner, which outlives its dismissal"
        case .deallocWithoutRemove: "ToastView observes ScreenDidAppear target-action and is dismissed without removing"
        case .deadSender: "AutosaveMonitor keeps its DocumentDidSave watch on a document that a revert closed"
        case .slowMainHandler: "ThemePreviewRenderer redraws synchronously on the main thread on ThemeDidChange"
        case .backgroundToMain: "CartSync posts CartDidChange from a worker into main-thread-only cart badges"
        case .typoPost: "ProfileService posts \"SesionDidChange\" instead of SessionDidChange"
        case .neverPosted: "PaywallListener observes PremiumStatusDidChange, which nothing posts any more"
        }
    }

    /// The NotifyKit fact the rule is computed from: what a probe (and notifytop) receives.
    package var fact: String {
        switch self {
        case .reappearLeak:
            "registrations at one callsite for SessionDidChange, each with a new live owner, never removed"
        case .doubleRegister: "two live registrations with the same owner, name and callsite; one post delivers twice"
        case .splitRegister:
            "two live registrations with the same owner and name from different callsites; one post delivers twice"
        case .earlyRemove:
            "removal (token-cancelled), posts of MessageDidArrive, then a new registration by the same (live) owner"
        case .droppedToken: "a tokenDropped event for a live block registration"
        case .selfCapture: "a registration with capturesObserverStrongly = true"
        case .deallocWithoutRemove: "a removal with reason observer-deallocated"
        case .deadSender: "a removal with reason object-deallocated"
        case .slowMainHandler: "a delivery on the main thread lasting about 120 ms (≥ 100 ms)"
        case .backgroundToMain: "a delivery on a non-main thread to a registration with mainThreadOnly = true"
        case .typoPost: "a post with matched = 0 whose name is one edit away from a registered name"
        case .neverPosted: "a live registration for a name no post ever carries"
        }
    }

    /// Where to look in notifytop.
    package var howToSpot: String {
        switch self {
        case .reappearLeak: "Registrations: SessionDidChange's count climbs each time the Profile tab appears"
        case .doubleRegister: "Warnings: R5 for SettingsScreen, fan-out 2 on each ThemeDidChange"
        case .splitRegister: "Warnings: R5 for CartScreen listing both callsites, fan-out 2 on each CartDidChange"
        case .earlyRemove: "Warnings: R2 for InboxScreen with the number of messages it missed"
        case .droppedToken: "Registrations: the AppWillResignActive block shows [token dropped]"
        case .selfCapture: "Warnings: R4 for WhatsNewBanner; the banner never leaves the registration table"
        case .deallocWithoutRemove: "Events: ScreenDidAppear registrations of ToastView end as observer-deallocated"
        case .deadSender: "Events: DocumentDidSave watches end as object-deallocated after a revert"
        case .slowMainHandler: "Names: ThemeDidChange's slowest delivery is ~120 ms, on the main thread"
        case .backgroundToMain: "Warnings: R8 for CartDidChange, delivered on a worker thread"
        case .typoPost: "Names: SesionDidChange with 0 observers, next to SessionDidChange"
        case .neverPosted: "Names: PremiumStatusDidChange with an observer and 0 posts"
        }
    }

    package static func < (lhs: DemoBug, rhs: DemoBug) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
