import Metrics
import NotifySystem

/// Finds the ``NameMetrics`` of a name, making them the first time a name is seen while labels
/// remain, and folding every later name into one: the label cardinality stays bounded.
///
/// A name keeps the handles it got first for the table's life, so its counts never move between
/// labels: registrations counted in `other`'s gauge are taken out of `other`'s gauge too. Handles
/// are never dropped, which lets ``NameMetricsCache`` hold them unretained.
final class NameMetricsTable: @unchecked Sendable {  // `lock` guards `named` and `ownLabels`
    /// Where names beyond the cap are counted.
    let other: NameMetrics
    /// Where registrations that observe every name are counted.
    let anyName: NameMetrics

    private let configuration: NotifyMetricsConfiguration
    private let factory: any MetricsFactory
    private let lock = Lock()
    /// Every name with a label of its own, and as many folded names again as `foldedMemory`
    /// allows, so that posting a folded name does not make it a stranger each time.
    @exclusivity(unchecked) private var named: [String: NameMetrics] = [:]
    @exclusivity(unchecked) private var ownLabels = 0
    private let foldedMemory: Int

    init(configuration: NotifyMetricsConfiguration, factory: any MetricsFactory) {
        self.configuration = configuration
        self.factory = factory
        other = NameMetrics(name: configuration.otherName, configuration: configuration, factory: factory)
        anyName = NameMetrics(name: configuration.anyName, configuration: configuration, factory: factory)
        foldedMemory = max(1_024, configuration.maxNames)
    }

    /// The handles `name` counts in; makes them on its first sight while labels remain.
    func metrics(for name: String) -> NameMetrics {
        lock.lock()
        defer { lock.unlock() }
        if let metrics = named[name] { return metrics }
        if ownLabels < configuration.maxNames {
            ownLabels += 1
            let metrics = NameMetrics(name: name, configuration: configuration, factory: factory)
            named[name] = metrics
            return metrics
        }
        if named.count < configuration.maxNames + foldedMemory { named[name] = other }
        return other
    }

    /// Names that have a label of their own.
    var labelledNames: Int {
        lock.withLock { ownLabels }
    }
}
