import Foundation
import NotifyKit

/// Observers that never run, most without any warning: the mistakes an explanation ("why didn't
/// my observer fire?") answers. With `--silent-bugs` the app makes each once at launch,
/// on the main lane, and records it in ``SilentBugLog`` with the reason notifytop must give.
final class SilentBugs: @unchecked Sendable {  // main lane only
    /// An account the app loaded; two instances of the same type.
    final class Account: @unchecked Sendable {
        let id: Int
        init(id: Int) { self.id = id }
    }

    /// A view that observes one thing and misses its notification.
    final class Panel {}

    private let context: DemoContext
    private let bag = TokenBag()
    /// The filter's account and the account actually posted, both alive for the whole run.
    private let shownAccount = Account(id: 1)
    private let loadedAccount = Account(id: 2)
    private let accountPanel = Panel()
    private let syncBadge = Panel()
    private let tipsController = Panel()
    private let libraryScreen = Panel()
    private let renewalBanner = Panel()
    /// The subscription that posts the renewal, made after the watched one was released.
    private var renewedSubscription: Account?

    init(context: DemoContext) {
        self.context = context
    }

    /// Plants every silent bug once, in a fixed order.
    func plant() {
        objectDiffers()
        nameDiffers()
        registeredAfter()
        removedBefore()
        ownerDead()
        objectDead()
    }

    /// The panel filters on the account it shows; the app posts the account it loaded.
    private func objectDiffers() {
        let site = DemoSite()
        context.registered(.accountDidLoad)
        bag.add(
            context.center.observe(
                DemoName.accountDidLoad.name, object: shownAccount, owner: accountPanel, file: site.file,
                line: site.line
            ) { [context] _, _ in context.received(.accountDidLoad) })
        context.silentBugs.record(.objectDiffers, posted: .accountDidLoad, site: site)
        context.post(.accountDidLoad, object: loadedAccount)
    }

    /// The badge observes `ProfileDidSync`; the sync posts a hand-typed "ProfileDidSynk".
    private func nameDiffers() {
        let site = DemoSite()
        context.registered(.profileDidSync)
        bag.add(
            context.center.observe(
                DemoName.profileDidSync.name, owner: syncBadge, file: site.file, line: site.line
            ) { [context] _, _ in context.received(.profileDidSync) })
        context.silentBugs.record(.nameDiffers, posted: .profileDidSyncTypo, site: site)
        context.post(.profileDidSyncTypo)
    }

    /// Onboarding finishes before the tips controller, created lazily, starts listening for it.
    private func registeredAfter() {
        context.post(.onboardingDidFinish)
        let site = DemoSite()
        context.registered(.onboardingDidFinish)
        bag.add(
            context.center.observe(
                DemoName.onboardingDidFinish.name, owner: tipsController, file: site.file, line: site.line
            ) { [context] _, _ in context.received(.onboardingDidFinish) })
        context.silentBugs.record(.registeredAfter, posted: .onboardingDidFinish, site: site)
    }

    /// The library screen stops listening as it starts the refresh whose end it waits for.
    private func removedBefore() {
        let site = DemoSite()
        context.registered(.libraryDidRefresh)
        let token = context.center.observe(
            DemoName.libraryDidRefresh.name, owner: libraryScreen, file: site.file, line: site.line
        ) { [context] _, _ in context.received(.libraryDidRefresh) }
        context.silentBugs.record(.removedBefore, posted: .libraryDidRefresh, site: site)
        token.cancel()
        context.post(.libraryDidRefresh)
    }

    /// A receipt view observes the purchase and is released before the purchase completes.
    private func ownerDead() {
        let site = DemoSite()
        do {
            let receipt = Panel()
            context.registered(.purchaseDidComplete)
            context.center.observe(
                DemoName.purchaseDidComplete.name, owner: receipt, file: site.file, line: site.line
            ) { [context] _, _ in context.received(.purchaseDidComplete) }
        }
        context.silentBugs.record(.ownerDead, posted: .purchaseDidComplete, site: site)
        context.post(.purchaseDidComplete)
    }

    /// A banner watches the subscription it was shown for; that one is released, a new one
    /// (often at the same address) renews, and the banner's filter no longer matches anything.
    private func objectDead() {
        let site = DemoSite()
        do {
            let watched = Account(id: 3)
            context.registered(.subscriptionDidRenew)
            bag.add(
                context.center.observe(
                    DemoName.subscriptionDidRenew.name, object: watched, owner: renewalBanner, file: site.file,
                    line: site.line
                ) { [context] _, _ in context.received(.subscriptionDidRenew) })
        }
        context.silentBugs.record(.objectDead, posted: .subscriptionDidRenew, site: site)
        let renewed = Account(id: 4)
        renewedSubscription = renewed
        context.post(.subscriptionDidRenew, object: renewed)
    }
}

/// The line that made it: a registration's callsite, as the trace names it.
struct DemoSite {
    let file: StaticString
    let line: UInt

    init(file: StaticString = #fileID, line: UInt = #line) {
        self.file = file
        self.line = line
    }

    var description: String { "\(file):\(line)" }
}
