import Foundation
import NotifyKit
import NotifySystem

/// The main thread's share of the workload: navigation, the cart, the editor, the theme, the
/// session. It owns the UI; every step runs on the main lane and draws its choices from the lane's
/// own ``SplitMix64`` stream, so the main thread's registrations and posts depend only on the seed.
///
/// The first steps follow a fixed ``tour`` that posts every main-thread name once (what a user's
/// first minute does), so even a short or slow run has no observer waiting for a name never posted.
final class MainLane: @unchecked Sendable {  // main lane only
    enum Action: CaseIterable {
        case switchTab, openCart, openSettings, openEditor, closeModal, addToCart, scrollCart, type, save, revert
        case toggleTheme, changeLocale, toggleSession, changeAvatar, backgroundApp, memoryWarning
    }

    static let tour: [Action] = [
        .toggleSession, .toggleTheme, .changeLocale, .openCart, .addToCart, .scrollCart, .closeModal, .openEditor,
        .type, .save, .revert, .closeModal, .switchTab, .openSettings, .toggleTheme, .closeModal,
        .changeAvatar, .backgroundApp, .memoryWarning, .switchTab,
    ]

    /// Steps after which the launch banner is dismissed.
    static let bannerSteps = 12
    /// Steps a toast stays up.
    static let toastSteps = 3
    /// The tour's first tab switch always shows a toast.
    static let tourToastStep = 12
    /// The crash reporter SDK starts lazily, a while after launch: late enough that a viewer
    /// attached at start sees its token dropped live (the registration snapshot a late viewer gets
    /// does not say whether a token was dropped).
    static let crashReporterStep = 100

    private let context: DemoContext
    private var rng: SplitMix64
    let relay: ProgressRelay
    private let chrome: AppChrome
    private let badge: BadgeController
    private let recentFiles: RecentFiles
    private let renderer: ThemePreviewRenderer
    private let monitor: AutosaveMonitor
    private let profile: ProfileService
    private let cart = ShoppingCart()
    private let tabs: [any TabScreen]
    private var currentTab = 0
    private var modals: [any ModalScreen] = []
    private var toasts: [ToastView] = []
    private var banner: WhatsNewBanner?
    private let silentBugs: SilentBugs?
    private var crashReporter: CrashReporter?
    private var darkTheme = false
    private var signedIn = false
    private var localeIndex = 0
    private var fileCounter = 0
    private(set) var steps = 0

    /// Builds the UI; must run on the main lane.
    init(context: DemoContext, rng: SplitMix64) {
        self.context = context
        self.rng = rng
        relay = ProgressRelay(context: context)
        chrome = AppChrome(context: context)
        badge = BadgeController(context: context)
        recentFiles = RecentFiles(context: context)
        renderer = ThemePreviewRenderer(context: context)
        monitor = AutosaveMonitor(context: context)
        profile = ProfileService(context: context)
        tabs = [InboxScreen(context: context), ProfileScreen(context: context)]
        banner = WhatsNewBanner(context: context)
        silentBugs = context.configuration.silentBugs ? SilentBugs(context: context) : nil
    }

    /// What the app does once the UI exists: becomes active and shows its first tab.
    func launch() {
        context.post(.appDidBecomeActive)
        context.post(.screenDidAppear, object: tabs[currentTab])
        silentBugs?.plant()
    }

    /// Performs one action: the tour's next, then a weighted random choice.
    func step() {
        let action = steps < Self.tour.count ? Self.tour[steps] : pick()
        perform(action)
        steps += 1
        housekeeping()
    }

    private func pick() -> Action {
        let nav = context.configuration.scenario.navigationWeight
        let top = modals.last
        let canOpen = modals.count < 2
        let weights = Action.allCases.map { action -> Int in
            switch action {
            case .switchTab: 3 * nav
            // One cart screen at a time: two would observe the same cart's total from one line.
            case .openCart: canOpen && !modals.contains { $0 is CartScreen } ? 2 * nav : 0
            case .openSettings: canOpen ? 1 * nav : 0
            case .openEditor: canOpen ? 2 * nav : 0
            case .closeModal: modals.isEmpty ? 0 : 3 * nav
            case .addToCart: 6
            case .scrollCart: top is CartScreen ? 5 : 0
            case .type: top is DocumentEditor ? 5 : 0
            case .save: top is DocumentEditor ? 3 : 0
            case .revert: top is DocumentEditor ? 1 : 0
            case .toggleTheme, .changeLocale, .toggleSession, .changeAvatar, .backgroundApp, .memoryWarning: 1
            }
        }
        return Action.allCases[rng.weighted(weights)]
    }

    private func perform(_ action: Action) {
        switch action {
        case .switchTab:
            let leaving = tabs[currentTab]
            leaving.disappear()
            context.post(.screenDidDisappear, object: leaving)
            currentTab = (currentTab + 1) % tabs.count
            tabs[currentTab].appear()
            context.post(.screenDidAppear, object: tabs[currentTab])
            maybeShowToast()
        case .openCart: present(CartScreen(context: context, cart: cart))
        case .openSettings: present(SettingsScreen(context: context))
        case .openEditor:
            fileCounter += 1
            present(DocumentEditor(context: context, monitor: monitor, path: "/notes/note-\(fileCounter).txt"))
        case .closeModal:
            guard let screen = modals.popLast() else { return }
            screen.close()
            context.post(.screenDidDisappear, object: screen)
        case .addToCart:
            cart.addItem()
            context.post(.cartDidChange)
            guard context.typedMessages else { return }
            context.post(
                CartTotalDidChange(items: cart.items, totalCents: cart.totalCents), .cartTotalDidChange, subject: cart)
        case .scrollCart: (modals.last as? CartScreen)?.scroll(using: &rng)
        case .type: (modals.last as? DocumentEditor)?.type()
        case .save: (modals.last as? DocumentEditor)?.save()
        case .revert: (modals.last as? DocumentEditor)?.revert()
        case .toggleTheme:
            darkTheme.toggle()
            context.post(.themeDidChange, userInfo: ["dark": darkTheme])
        case .changeLocale:
            localeIndex = (localeIndex + 1) % 3
            context.post(.localeDidChange, userInfo: ["locale": ["en", "fr", "de"][localeIndex]])
        case .toggleSession:
            signedIn.toggle()
            context.post(.sessionDidChange, userInfo: ["signedIn": signedIn])
        case .changeAvatar: profile.avatarDidChange()
        case .backgroundApp:
            context.post(.appWillResignActive)
            context.post(.appDidBecomeActive)
        case .memoryWarning: context.post(.memoryWarning)
        }
    }

    private func present(_ screen: any ModalScreen) {
        modals.append(screen)
        context.post(.screenDidAppear, object: screen)
        maybeShowToast()
    }

    /// Sometimes a toast follows a navigation ("Synced", "Saved"). Created right after a
    /// `ScreenDidAppear` post, which has just purged any dismissed toast that died registered, so a
    /// new toast at a recycled address never looks like a duplicate of a dead one.
    private func maybeShowToast() {
        let forced = steps == Self.tourToastStep
        guard toasts.isEmpty, forced || rng.chance(0.3) else { return }
        toasts.append(ToastView(context: context, step: steps))
    }

    private func housekeeping() {
        while let first = toasts.first, steps - first.shownAtStep >= Self.toastSteps {
            first.dismiss()
            toasts.removeFirst()
        }
        if steps == Self.bannerSteps, let shown = banner {
            shown.dismiss()
            banner = nil
        }
        if steps == Self.crashReporterStep {
            crashReporter = CrashReporter(context: context)
        }
    }
}
