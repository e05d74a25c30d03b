/// What an `object:` argument of `addObserver`, `post` or `removeObserver` stands for.
///
/// Foundation takes `Any?` there but matches by identity, so a value (an `Int`, a `String`, a
/// struct) boxed into a fresh object each time silently never matches. NotifyKit decides once,
/// when the argument arrives: a class instance is matched by identity (and held weakly as a
/// filter), a `Hashable` value by `==`, and any other value is rejected as a filter.
/// Bridged Foundation types (`NSString`, `NSNumber`) are classes on Linux: identity.
enum ObjectFilter {
    /// nil: every sender.
    case any
    case instance(AnyObject)
    case value(AnyHashable)
    /// A value that is not `Hashable`: nothing can be equal to it.
    case unhashable(any Any.Type)

    /// Inlined for the usual nil, which then costs no copy of the existential.
    @inline(__always)
    init(_ object: __shared Any?) {
        guard object != nil else {
            self = .any
            return
        }
        self = ObjectFilter.classify(object)
    }

    @inline(never)
    private static func classify(_ object: __shared Any?) -> ObjectFilter {
        guard let object = ObjectFilter.unwrapped(object) else { return .any }
        if type(of: object) is AnyClass { return .instance(object as AnyObject) }
        if let value = object as? AnyHashable { return .value(value) }
        return .unhashable(type(of: object))
    }

    /// `object` without the `Optional`s an `Any` may wrap it in (`token as Any` of an optional).
    private static func unwrapped(_ object: Any?) -> Any? {
        guard let object else { return nil }
        guard let optional = object as? any OptionalObject else { return object }
        return unwrapped(optional.wrappedObject)
    }

    /// The class instance, if this is one.
    var instance: AnyObject? {
        if case .instance(let object) = self { return object }
        return nil
    }

    /// What a registration keeps of this filter: the weakly held instance, or the value.
    ///
    /// - Precondition: the filter is not ``unhashable(_:)``.
    func stored(file: StaticString, line: UInt) -> (instance: AnyObject?, value: ValueFilter?) {
        switch self {
        case .any: return (nil, nil)
        case .instance(let object): return (object, nil)
        case .value(let value): return (nil, ValueFilter(value))
        case .unhashable(let type):
            preconditionFailure(Self.rejection(of: type), file: file, line: line)
        }
    }

    /// What a registration keeps of the filter `object` stands for; nil, the usual case, costs
    /// no enum copied or destroyed.
    ///
    /// - Precondition: `object` is not a value that is not `Hashable`.
    @inline(__always)
    static func stored(_ object: __shared Any?, file: StaticString, line: UInt) -> (
        instance: AnyObject?, value: ValueFilter?
    ) {
        guard object != nil else { return (nil, nil) }
        return ObjectFilter(object).stored(file: file, line: line)
    }

    /// The precondition message for a value filter that cannot be compared.
    static func rejection(of type: any Any.Type) -> String {
        "NotifyCenter: an object filter of type \(String(reflecting: type)) can never match: it is a value and "
            + "not Hashable. Pass a class instance (matched by identity), a Hashable value (matched by ==, such "
            + "as the value's id), or nil for every sender."
    }

    /// Whether a registration's filter (`instance` held weakly, or `value`) is this removal filter:
    /// nil matches any; otherwise the same instance or an equal value.
    func matchesRemoval(instance: AnyObject?, value: ValueFilter?) -> Bool {
        switch self {
        case .any: return true
        case .instance(let object): return instance === object
        case .value(let wanted): return value?.value == wanted
        case .unhashable: return false
        }
    }
}

/// A `Hashable` value an observer filters on; registrations hold it strongly, since a value has
/// no lifetime to follow.
final class ValueFilter: @unchecked Sendable {  // immutable; the value is only read and compared
    let value: AnyHashable

    init(_ value: AnyHashable) {
        self.value = value
    }

    /// The value's own type, as events name it (`Swift.Int`, not `AnyHashable`).
    var valueType: any Any.Type { type(of: value.base) }

    /// Whether a posted object (a value: posts of class instances never get here) equals this value.
    @inline(never)
    func matches(posted object: Any?) -> Bool {
        guard case .value(let posted) = ObjectFilter(object) else { return false }
        return posted == value
    }
}

/// Lets ``ObjectFilter`` see through an `Optional` stored in an `Any`.
private protocol OptionalObject {
    var wrappedObject: Any? { get }
}

extension Optional: OptionalObject {
    fileprivate var wrappedObject: Any? { self.map { $0 as Any } }
}
