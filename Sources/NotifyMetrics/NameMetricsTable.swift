import Metrics
import NotifySystem

/// Finds the ``NameMetrics`` of a name, making them the first time a name is seen while labels
/// remain, and folding every later name into one: the label cardinality stays bounded.
///
/// A name keeps the handles it got first for the table's life, so its counts never move between
/// labels: registrations counted in `other`'s gauge are taken out of `other`'s gauge too. Entries
/// are never dropped, which lets ``NameMetricsCache`` publish them to other threads unretained.
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
    @exclusivity(unchecked) private var named: [String: NameEntry] = [:]
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
        entry(for: name)?.metrics ?? other
    }

    /// `name`'s entry, made on its first sight; nil for a folded name the table no longer has room
    /// to remember (it counts in ``other``).
    func entry(for name: String) -> NameEntry? {
        lock.lock()
        defer { lock.unlock() }
        if let entry = named[name] { return entry }
        if ownLabels < configuration.maxNames {
            ownLabels += 1
            let entry = NameEntry(
                name: name, metrics: NameMetrics(name: name, configuration: configuration, factory: factory))
            named[name] = entry
            return entry
        }
        guard named.count < configuration.maxNames + foldedMemory else { return nil }
        let entry = NameEntry(name: name, metrics: other)
        named[name] = entry
        return entry
    }

    /// Names that have a label of their own.
    var labelledNames: Int {
        lock.withLock { ownLabels }
    }
}

/// A name and the handles it counts in, immutable and kept by the table for its whole life.
final class NameEntry: Sendable {
    /// Keeps the name's storage, so no other string can have ``bits`` while the entry lives.
    let name: String
    let bits: SIMD2<UInt64>
    let metrics: NameMetrics

    init(name: String, metrics: NameMetrics) {
        self.name = name
        self.bits = NameEntry.bits(of: name)
        self.metrics = metrics
    }

    /// A string's two words: equal bits mean an equal string while the string with them lives (a
    /// small string's bits are its bytes, a large one's point at its storage).
    @inline(__always)
    static func bits(of name: String) -> SIMD2<UInt64> {
        unsafeBitCast(name, to: SIMD2<UInt64>.self)
    }
}
