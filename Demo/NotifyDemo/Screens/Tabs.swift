import Foundation
import NotifyKit

/// A tab of the app's tab bar: created at launch, never closed, only shown and hidden.
protocol TabScreen: AnyObject {
    /// What `ScreenDidAppear` reports.
    var title: String { get }
    /// The tab became visible.
    func appear()
    /// Another tab took its place.
    func disappear()
}

/// The Profile tab. Clean, it builds its badge model once. With `reappear-leak` it builds a new
/// one on every appear and keeps the old ones in `models`, each still registered for
/// `SessionDidChange` at the same callsite: one more live registration per appear (R6).
final class ProfileScreen: TabScreen, @unchecked Sendable {  // main lane only
    let title = "Profile"
    private let context: DemoContext
    private var models: [ProfileBadgeModel] = []
    /// The leak stops growing here, so a long run stays responsive.
    static let leakCap = 1_000

    init(context: DemoContext) {
        self.context = context
        models.append(ProfileBadgeModel(context: context))
    }

    /// Live badge models: 1 when clean.
    var modelCount: Int { models.count }

    func appear() {
        guard context.has(.reappearLeak), models.count < Self.leakCap else { return }
        // The bug: `models.append` where `models = [ProfileBadgeModel(…)]` was meant.
        models.append(ProfileBadgeModel(context: context))
        context.planted.plant(.reappearLeak)
    }

    func disappear() {}
}

/// Shows the signed-in user's badge; a target–action observer of `SessionDidChange`.
final class ProfileBadgeModel: @unchecked Sendable {  // main lane only
    private let context: DemoContext
    private(set) var refreshes = 0

    init(context: DemoContext) {
        self.context = context
        context.registered(.sessionDidChange)
        context.center.addObserver(
            self, action: ProfileBadgeModel.sessionChanged,
            name: DemoName.sessionDidChange.name, object: nil)
    }

    private func sessionChanged(_ note: Notification) {
        context.received(.sessionDidChange)
        refreshes += 1
    }
}

/// The Inbox tab, the one visible at launch. Clean, it observes `MessageDidArrive` for its whole
/// life. With `early-remove` it cancels that observation when it disappears and registers again
/// when it appears, so messages that arrive while it is hidden never reach it (R2). Its account
/// header observes `SessionDidChange` throughout, which is also what tells a viewer the inbox is
/// still alive while its message observer is gone (addresses alone cannot: they are reused).
final class InboxScreen: TabScreen, @unchecked Sendable {  // main lane only
    let title = "Inbox"
    private let context: DemoContext
    private let bag = TokenBag()
    private var token: NotifyToken?
    private(set) var messages = 0
    private(set) var accountRefreshes = 0

    init(context: DemoContext) {
        self.context = context
        context.registered(.sessionDidChange)
        bag.add(
            context.center.observe(
                DemoName.sessionDidChange.name, owner: self, mainThreadOnly: context.uiRunsOnMainThread
            ) { [context] inbox, _ in
                context.received(.sessionDidChange)
                inbox.accountRefreshes += 1
            })
        subscribe()
    }

    deinit { token?.cancel() }

    func appear() {
        if token == nil { subscribe() }
    }

    func disappear() {
        guard context.has(.earlyRemove) else { return }
        // The bug: tearing down in viewDidDisappear what viewDidLoad set up.
        token?.cancel()
        token = nil
        context.planted.plant(.earlyRemove)
    }

    private func subscribe() {
        context.registered(.messageDidArrive)
        token = context.center.observe(
            DemoName.messageDidArrive.name, owner: self, deliverOn: context.targets.ui,
            mainThreadOnly: context.uiRunsOnMainThread
        ) { [context] inbox, _ in
            context.received(.messageDidArrive)
            inbox.messages += 1
        }
    }
}
