import NotifyKit

/// Left over from a removed paywall: with `never-posted` it observes `PremiumStatusDidChange`,
/// which nothing posts any more (R10). The clean app has no paywall and creates none.
final class PaywallListener: @unchecked Sendable {  // main lane only
    private let bag = TokenBag()

    init?(context: DemoContext) {
        guard context.has(.neverPosted) else { return nil }
        context.registered(.premiumStatusDidChange)
        bag.add(
            context.center.observe(DemoName.premiumStatusDidChange.name, owner: self) { [context] _, _ in
                context.received(.premiumStatusDidChange)
            })
        context.planted.plant(.neverPosted)
    }
}
