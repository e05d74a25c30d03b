package import Foundation
import NotifyKit

/// The notification names of the demo app: about twenty a real app would have, plus those that
/// exist only because of planted bugs.
///
/// Each clean name is posted from one side only (the main thread, or background threads), always
/// has at least one long-lived observer, and is posted during launch, so a clean run gives the
/// dashboard no mixed-thread name (R8), no unheard post (R9) and no never-posted observer (R10).
/// Counters index by ``rawValue``, which keeps a post's bookkeeping to one array increment.
package enum DemoName: Int, CaseIterable, Sendable, CustomStringConvertible {
    case appDidBecomeActive
    case appWillResignActive
    case sessionDidChange
    case tokenDidRefresh
    case themeDidChange
    case localeDidChange
    case cartDidChange
    case screenDidAppear
    case screenDidDisappear
    case keyboardWillShow
    case keyboardWillHide
    case reachabilityDidChange
    case downloadDidStart
    case downloadProgress
    case downloadDidFinish
    case messageDidArrive
    case badgeCountDidChange
    case syncDidStart
    case syncDidFinish
    case memoryWarning
    case documentDidSave
    case cacheDidEvict
    /// The main-actor message ``CartTotalDidChange``: its name is its type's.
    case cartTotalDidChange
    /// The async message ``DocumentSaved`` (live runs only: see ``SearchIndexer``).
    case documentSaved
    /// Posted by ``SearchIndexer`` inside its `DocumentSaved` call, after a suspension (live only).
    case searchIndexDidUpdate
    /// `typo-post`: one letter short of ``sessionDidChange``; nobody observes it.
    case sessionDidChangeTypo
    /// `never-posted`: observed by a leftover paywall listener; nothing posts it any more.
    case premiumStatusDidChange
    // The silent bugs' names (`--silent-bugs`): each posted once at launch, its observer missing it.
    /// Posted with another account than the one its observer filters on (object-differs).
    case accountDidLoad
    /// Observed, but posted only under the misspelt ``profileDidSyncTypo`` (name-differs).
    case profileDidSync
    /// "ProfileDidSynk": the misspelt post ``profileDidSync``'s observer misses.
    case profileDidSyncTypo
    /// Posted once, before its observer registers (registered-after).
    case onboardingDidFinish
    /// Posted after its observer was cancelled (removed-before).
    case libraryDidRefresh
    /// Posted after its observer's owner was released (owner-dead).
    case purchaseDidComplete
    /// Posted by a new subscription after the one its observer filters on was released (object-dead).
    case subscriptionDidRenew
    /// Enqueued four times on a notification queue, which merges three away: one post (coalesced).
    case exportDidProgress
    /// Posted to the app's center; its observer registered on the sync service's (other-center).
    case settingsDidChange

    /// The string the notification is posted with.
    package var string: String {
        Self.strings[rawValue]
    }

    /// The name as the center takes it; built once per case.
    package var name: Notification.Name { Self.names[rawValue] }

    package var description: String { string }

    private static let strings: [String] = allCases.map { name in
        switch name {
        case .appDidBecomeActive: "AppDidBecomeActive"
        case .appWillResignActive: "AppWillResignActive"
        case .sessionDidChange: "SessionDidChange"
        case .tokenDidRefresh: "TokenDidRefresh"
        case .themeDidChange: "ThemeDidChange"
        case .localeDidChange: "LocaleDidChange"
        case .cartDidChange: "CartDidChange"
        case .screenDidAppear: "ScreenDidAppear"
        case .screenDidDisappear: "ScreenDidDisappear"
        case .keyboardWillShow: "KeyboardWillShow"
        case .keyboardWillHide: "KeyboardWillHide"
        case .reachabilityDidChange: "ReachabilityDidChange"
        case .downloadDidStart: "DownloadDidStart"
        case .downloadProgress: "DownloadProgress"
        case .downloadDidFinish: "DownloadDidFinish"
        case .messageDidArrive: "MessageDidArrive"
        case .badgeCountDidChange: "BadgeCountDidChange"
        case .syncDidStart: "SyncDidStart"
        case .syncDidFinish: "SyncDidFinish"
        case .memoryWarning: "MemoryWarning"
        case .documentDidSave: "DocumentDidSave"
        case .cacheDidEvict: "CacheDidEvict"
        case .cartTotalDidChange: String(reflecting: CartTotalDidChange.self)
        case .documentSaved: String(reflecting: DocumentSaved.self)
        case .searchIndexDidUpdate: "SearchIndexDidUpdate"
        case .sessionDidChangeTypo: "SesionDidChange"
        case .premiumStatusDidChange: "PremiumStatusDidChange"
        case .accountDidLoad: "AccountDidLoad"
        case .profileDidSync: "ProfileDidSync"
        case .profileDidSyncTypo: "ProfileDidSynk"
        case .onboardingDidFinish: "OnboardingDidFinish"
        case .libraryDidRefresh: "LibraryDidRefresh"
        case .purchaseDidComplete: "PurchaseDidComplete"
        case .subscriptionDidRenew: "SubscriptionDidRenew"
        case .exportDidProgress: "ExportDidProgress"
        case .settingsDidChange: "SettingsDidChange"
        }
    }

    private static let names: [Notification.Name] = allCases.map { Notification.Name($0.string) }
}
