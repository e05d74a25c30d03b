/// A `removeObserver` call that ended nothing: usually a block observer removed by owner instead
/// of by token (E1a), or a double removal.
public struct MissedRemoval: Sendable, Hashable {
    /// Stream time of the call.
    public let at: UInt64
    /// The object passed.
    public let observer: ObjectInfo
    /// The name passed, if any.
    public let name: String?
    /// Where it was called.
    public let callsite: CallsiteInfo
}
