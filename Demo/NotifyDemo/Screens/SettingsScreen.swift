import Foundation
import NotifyKit

/// Settings: a target–action observer of `ThemeDidChange`, removed with `removeObserver(self)` on
/// close. With `double-register` it subscribes in `init` and again in `viewDidLoad`, so while it
/// is open it holds two identical registrations and every theme change runs its handler twice (R5).
final class SettingsScreen: ModalScreen, @unchecked Sendable {  // main lane only
    let title = "Settings"
    private let context: DemoContext
    private(set) var themeChanges = 0

    init(context: DemoContext) {
        self.context = context
        subscribe()
        viewDidLoad()
    }

    private func viewDidLoad() {
        guard context.has(.doubleRegister) else { return }
        // The bug: setup shared by init and viewDidLoad runs twice.
        subscribe()
        context.planted.plant(.doubleRegister)
    }

    private func subscribe() {
        context.registered(.themeDidChange)
        context.center.addObserver(
            self, action: SettingsScreen.themeChanged, name: DemoName.themeDidChange.name,
            object: nil)
    }

    func close() {
        context.center.removeObserver(self)
    }

    private func themeChanged(_ note: Notification) {
        context.received(.themeDidChange)
        themeChanges += 1
    }
}
