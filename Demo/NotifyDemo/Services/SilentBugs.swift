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
    private let exportProgressBar = Panel()
    private let settingsPanel = Panel()
    /// Made on the main lane, which plants the bugs.
    private lazy var exportQueue = NotifyQueue(center: context.center)

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
        coalesced()
        otherCenter()
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
        let cancel = DemoSite()
        token.cancel(file: cancel.file, line: cancel.line)
        context.silentBugs.record(
            .removedBefore, posted: .libraryDidRefresh, site: site,
            evidence: ["cancel() on its token at \(cancel.description)"])
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
        let watchedAddress: ObjectIdentifier
        do {
            let watched = Account(id: 3)
            watchedAddress = ObjectIdentifier(watched)
            context.registered(.subscriptionDidRenew)
            bag.add(
                context.center.observe(
                    DemoName.subscriptionDidRenew.name, object: watched, owner: renewalBanner, file: site.file,
                    line: site.line
                ) { [context] _, _ in context.received(.subscriptionDidRenew) })
        }
        let renewed = Account(id: 4)
        renewedSubscription = renewed
        // The allocator often gives the new subscription the dead one's address.
        let reused = ObjectIdentifier(renewed) == watchedAddress
        context.silentBugs.record(
            .objectDead, posted: .subscriptionDidRenew, site: site,
            evidence: ["died between"] + (reused ? ["took its address"] : []))
        context.post(.subscriptionDidRenew, object: renewed)
    }

    /// An export reports progress through a notification queue coalescing on name: three updates
    /// wait for an idle moment, then the last is posted at once and replaces them, so the progress
    /// bar's observer runs once. The post carries the three merged enqueues and their sites.
    private func coalesced() {
        let site = DemoSite()
        context.registered(.exportDidProgress)
        bag.add(
            context.center.observe(
                DemoName.exportDidProgress.name, owner: exportProgressBar, file: site.file, line: site.line
            ) { [context] _, _ in context.received(.exportDidProgress) })
        let progress = Notification(name: DemoName.exportDidProgress.name)
        var merged: [DemoSite] = []
        for _ in 0..<2 {
            let step = DemoSite()
            exportQueue.enqueue(
                progress, postingStyle: .whenIdle, coalesceMask: .onName, forModes: nil, file: step.file,
                line: step.line)
            merged.append(step)
        }
        let last = DemoSite()
        exportQueue.enqueue(
            progress, postingStyle: .whenIdle, coalesceMask: .onName, forModes: nil, file: last.file, line: last.line)
        merged.append(last)
        context.silentBugs.record(.coalesced, posted: .exportDidProgress, site: site, coalesced: merged)
        // `.now` replaces the pending three and posts at once, outside the app's `post`: counted here.
        context.tally.countPost(.exportDidProgress)
        exportQueue.enqueue(progress, postingStyle: .now, coalesceMask: .onName, forModes: nil)
    }
}

extension SilentBugs {
    /// The settings panel listens on the sync service's center, where it was handed the wrong
    /// one; the app posts the change to its own center.
    private func otherCenter() {
        guard let sync = context.syncCenter else { return }
        let site = DemoSite()
        context.registered(.settingsDidChange)
        bag.add(
            sync.observe(DemoName.settingsDidChange.name, owner: settingsPanel, file: site.file, line: site.line) {
                [context] _, _ in context.received(.settingsDidChange)
            })
        context.silentBugs.record(
            .otherCenter, posted: .settingsDidChange, site: site,
            evidence: ["\"\(sync.label)\"", "\"\(context.center.label)\""])
        context.post(.settingsDidChange)
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
