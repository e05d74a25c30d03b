import NotifyWire

/// Which center each event is on: the first center the probes see is the header's (index 0); each
/// other center, by address, gets the next index and a `center` line when first seen, so views
/// tell centers apart (the `*` row, explain, findings' signatures). A center that deallocates
/// gives its address up: a new center there is a new index.
extension ProbeEventBuilder {
    /// The stream index of the center at `address`, introduced by a `center` line the first time.
    mutating func streamCenter(_ address: UInt64?, events: inout [TraceEvent]) -> UInt32? {
        guard let address else { return nil }
        if let index = centerIndices[address] { return index == 0 ? nil : index }
        // A process that keeps this many centers alive (or whose ends were lost) gets the rest
        // shown under the header's center rather than a table that grows without bound.
        guard centerIndices.count < Self.maximumCenters else { return nil }
        let index = nextCenterIndex
        // Past the last index, later centers share it rather than wrap onto an earlier one.
        if nextCenterIndex < .max { nextCenterIndex += 1 }
        centerIndices[address] = index
        guard index > 0 else { return nil }
        events.append(.center(TraceCenter(index: index, label: "NotificationCenter 0x" + String(address, radix: 16))))
        return index
    }

    /// Centers told apart at once, at most.
    static var maximumCenters: Int { 1 << 16 }

    /// The center at `address` ended: its index is not given to the next center there.
    mutating func forgetCenter(_ address: UInt64) {
        centerIndices[address] = nil
    }
}
