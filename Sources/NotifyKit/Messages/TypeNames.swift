import NotifySystem

/// Caches `String(reflecting:)` per type, so events name types without formatting on every post.
enum TypeNames {
    private static let cache = LockedValue<[ObjectIdentifier: String]>([:])

    static func name(of type: any Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let name = String(reflecting: type)
        cache.withLock { $0[key] = name }
        return name
    }
}
