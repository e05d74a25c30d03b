/// How much the model holds right now: element counts of every table and an estimate of the
/// bytes they take.
///
/// Why: bounded memory is a promise of the model, so it is measurable from the outside (the
/// benchmark checks the footprint stays flat over ten million events) without malloc statistics.
package struct ModelFootprint: Sendable, Hashable, CustomStringConvertible {
    /// Registration rows, live and removed-not-yet-retired.
    package var registrations: Int
    /// Removed rows waiting to retire.
    package var removedRegistrations: Int
    /// Name rows, the `*` row included.
    package var names: Int
    /// Thread rows.
    package var threads: Int
    /// Entries across the thread logs.
    package var logEntries: Int
    /// Findings, open and resolved.
    package var findings: Int
    /// Object, type and callsite definitions.
    package var definitions: Int
    /// Entries of the rules' indexes.
    package var ruleIndexEntries: Int
    /// A rough byte estimate (element sizes times counts, plus per-row histograms).
    package var estimatedBytes: Int

    /// One line for a benchmark report.
    package var description: String {
        "\(registrations) registrations (\(removedRegistrations) removed), \(names) names, \(threads) threads, "
            + "\(logEntries) log entries, \(findings) findings, \(definitions) definitions, "
            + "\(ruleIndexEntries) rule entries, ~\(estimatedBytes / 1024) KiB"
    }
}

extension InspectorState {
    /// The model's current size; O(threads + names) to compute.
    package var footprint: ModelFootprint {
        let logEntries = threadRows.reduce(0) { $0 + $1.log.count }
        let histograms = nameRows.reduce(0) { $0 + ($1.handlerTime.count > 0 ? 1 : 0) }
        let ruleEntries =
            ruleState.selfRetaining.count + ruleState.duplicates.count + ruleState.tallies.count
            + ruleState.ownerNames.count + ruleState.removalGapCount + ruleState.centerPosts.count
            + ruleState.unheard.count
        let definitionCount = definitions.objects.count + definitions.types.count + definitions.callsites.count
        let bytes =
            rows.count * MemoryLayout<ObserverRow>.stride + registrationSlots.count * 24
            + nameRows.count * MemoryLayout<NameRow>.stride + histograms * LatencyHistogram.bucketCount * 8
            + threadRows.count * MemoryLayout<ThreadRow>.stride + logEntries * MemoryLayout<DeliveryLogEntry>.stride
            + findingStore.byKey.count * (MemoryLayout<LeakFinding>.stride + 256) + definitionCount * 64
            + ruleEntries * 64 + retiring.count * 8 + history.estimatedBytes + explainFacts.estimatedBytes
        return ModelFootprint(
            registrations: registrationSlots.count, removedRegistrations: retiring.count - retiringHead,
            names: nameSlots.count + 1, threads: threadRows.count, logEntries: logEntries,
            findings: findingStore.byKey.count, definitions: definitionCount, ruleIndexEntries: ruleEntries,
            estimatedBytes: bytes)
    }
}
