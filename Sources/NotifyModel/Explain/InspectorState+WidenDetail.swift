extension InspectorState {
    /// Lets explain and cascades keep up to `configuration`'s ``InspectorConfiguration/explainLinkCapacity``
    /// posts and deliveries from now on, for a fold made with a smaller one (the process overview's)
    /// whose views are now shown. What was kept stays; a ring that already went round keeps its
    /// size, and explain and cascades say how far it reaches.
    public mutating func widenDetail(to configuration: InspectorConfiguration) {
        history.widen(to: configuration.explainLinkCapacity)
    }
}
