public import Foundation
import NotifySystem
import Synchronization

extension NotifyCenter {
    /// Ends registrations: every registration of a target or owner, or the one of a ``NotifyToken``.
    ///
    /// A token of another center, a token already removed and an object with no registrations
    /// end nothing; probes are told, since each is usually a bug. A typed message
    /// ``ObservationToken`` passed as an object ends its registration (Foundation ignores it).
    public func removeObserver(_ observer: AnyObject, file: StaticString = #fileID, line: UInt = #line) {
        if let token = Self.notifyToken(observer) {
            removeObserver(token, file: file, line: line)
            return
        }
        removeObserver(observer, filter: .any, name: nil, file: file, line: line)
    }

    /// Ends the registration of `token`, as passing it as an object does, with no cast to tell it.
    ///
    /// A token of another center, or one already removed, ends nothing: probes are told, as that is
    /// usually a bug (the observer stays registered on its own center).
    public func removeObserver(_ token: NotifyToken, file: StaticString = #fileID, line: UInt = #line) {
        let callsite = ProbeEvent.Callsite(file: file, line: line)
        guard token.link === link else {
            reportMissedRemoval(of: token, callsite: callsite)
            return
        }
        if end(registrationID: token.registrationID, slot: token.slot, reason: .explicit, callsite: callsite) {
            token.ended.store(true, ordering: .relaxed)
        } else if token.ended.load(ordering: .relaxed) {
            reportMissedRemoval(of: token, callsite: callsite)
        }
    }

    /// Tells the probes that removing `token` ended nothing: it is another center's, or was removed
    /// or cancelled already. Names the registration's name while its own center still holds it.
    @inline(never)
    private func reportMissedRemoval(of token: NotifyToken, callsite: ProbeEvent.Callsite) {
        guard isProbed else { return }
        let name = token.link === link ? nil : token.center?.liveName(of: token)
        locked {
            guard let probes else { return }
            probes.emit(
                .removeMissed(
                    ProbeEvent.MissedRemoval(
                        observer: ProbeEvent.ObjectRef(token, serial: table.serials.serial(of: token)),
                        name: name?.rawValue, callsite: callsite)))
        }
    }

    /// The name `token`'s registration was made for, while this center holds it; nil for none.
    private func liveName(of token: NotifyToken) -> Notification.Name? {
        locked {
            guard table.find(id: token.registrationID, slot: token.slot) != nil else { return nil }
            return table.name(ofSlot: token.slot)
        }
    }

    /// `observer` as a ``NotifyToken``, if it is one. The class is final, so comparing classes is
    /// the whole cast (`as?` would search).
    @inline(__always)
    private static func notifyToken(_ observer: AnyObject) -> NotifyToken? {
        guard type(of: observer) == NotifyToken.self else { return nil }
        return unsafeDowncast(observer, to: NotifyToken.self)
    }

    /// Ends the registrations of `observer` that match `name` and `object` (nil matches any).
    ///
    /// As in Foundation, a non-nil `object` matches only registrations filtered on that same
    /// object (the same instance, or an equal `Hashable` value): a registration with no object
    /// filter is kept.
    public func removeObserver(
        _ observer: AnyObject, name: Notification.Name?, object: Any?,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        removeObserver(observer, filter: ObjectFilter(object), name: name, file: file, line: line)
    }

    /// Foundation's `removeObserver(_: Any)`: `observer` may be a token typed `NSObjectProtocol?`,
    /// an observer object, or nil (nothing to remove).
    ///
    /// - Precondition: `observer` is not a value other than nil: a value has no registrations.
    @_disfavoredOverload
    public func removeObserver(_ observer: Any, file: StaticString = #fileID, line: UInt = #line) {
        removeObserver(observer, name: nil, object: nil, file: file, line: line)
    }

    /// Foundation's `removeObserver(_: Any, name:object:)`: the form above, filtered like
    /// ``removeObserver(_:name:object:file:line:)``.
    @_disfavoredOverload
    public func removeObserver(
        _ observer: Any, name: Notification.Name?, object: Any?,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        switch ObjectFilter(observer) {
        case .any: return
        case .instance(let instance):
            removeObserver(instance, filter: ObjectFilter(object), name: name, file: file, line: line)
        case .value(let value):
            // Foundation ignores an ObservationToken here; removing it is what the caller meant.
            if let token = value.base as? ObservationToken {
                removeObserver(token, file: file, line: line)
                return
            }
            preconditionFailure(Self.notAnObserver(type(of: value.base)), file: file, line: line)
        case .unhashable(let type):
            preconditionFailure(Self.notAnObserver(type), file: file, line: line)
        }
    }

    static func notAnObserver(_ type: any Any.Type) -> String {
        "NotifyCenter.removeObserver: a \(String(reflecting: type)) value has no registrations. Pass the token "
            + "addObserver(forName:object:queue:using:) returned, or the observer object."
    }

    private func removeObserver(
        _ observer: AnyObject, filter: ObjectFilter, name: Notification.Name?, file: StaticString, line: UInt
    ) {
        if let token = Self.notifyToken(observer) {
            let callsite = ProbeEvent.Callsite(file: file, line: line)
            guard token.link === link else {
                reportMissedRemoval(of: token, callsite: callsite)
                return
            }
            if end(
                registrationID: token.registrationID, slot: token.slot, reason: .explicit, name: name, object: filter,
                callsite: callsite)
            {
                token.ended.store(true, ordering: .relaxed)
            } else if token.ended.load(ordering: .relaxed) {
                reportMissedRemoval(of: token, callsite: callsite)
            }
            return
        }
        // Foundation ignores an ObservationToken here; removing it is what the caller meant. Only an
        // object of the class a value gets boxed in can be one: unboxing costs conformance lookups.
        if ObjectIdentifier(type(of: observer)) == Self.boxedValueClass, let token = observer as? ObservationToken {
            removeObserver(token, file: file, line: line)
            return
        }
        locked { removeRegistrations(of: observer, name: name, object: filter, file: file, line: line) }
    }

    /// The class of the object a Swift value becomes as `AnyObject`, such as an `ObservationToken`
    /// kept in an `[AnyObject]`.
    private static let boxedValueClass = ObjectIdentifier(type(of: ObservationToken.unregistered as AnyObject))

    /// Must be called with `lock` held.
    private func removeRegistrations(
        of observer: AnyObject, name: Notification.Name?, object: ObjectFilter, file: StaticString, line: UInt
    ) {
        let candidates = table.byObserver[ObjectIdentifier(observer)].map { $0.values.sorted { $0.id < $1.id } } ?? []
        let nameSlot = name.map { table.existingSlot(of: $0) }
        let callsite = ProbeEvent.Callsite(file: file, line: line)
        var removed = 0
        for registration in candidates {
            guard let current = registration.observer else {
                // Weak references are already nil inside deinit, so `removeObserver(self)` there
                // finds its own registrations dead at its own address: that is a removal.
                guard registration.matchesRemoval(nameSlot: nameSlot, object: object) else { continue }
                end(registration, reason: .explicit, callsite: callsite)
                removed += 1
                continue
            }
            guard current === observer, registration.matchesRemoval(nameSlot: nameSlot, object: object) else {
                continue
            }
            end(registration, reason: .explicit, callsite: callsite)
            removed += 1
        }
        if removed == 0, let probes {
            probes.emit(
                .removeMissed(
                    ProbeEvent.MissedRemoval(
                        observer: ProbeEvent.ObjectRef(observer, serial: table.serials.serial(of: observer)),
                        name: name?.rawValue,
                        callsite: callsite)))
        }
    }

    /// Ends one registration by id, if it matches Foundation's `name`/`object` removal filter (nil
    /// matches any); what a token's `cancel()` and `removeObserver(token…)` call.
    @discardableResult
    func end(
        registrationID: UInt64, slot: UInt32, reason: ProbeEvent.RemovalReason,
        name: Notification.Name?, object: ObjectFilter, callsite: ProbeEvent.Callsite
    ) -> Bool {
        if name == nil, case .any = object {
            return end(registrationID: registrationID, slot: slot, reason: reason, callsite: callsite)
        }
        return locked {
            let nameSlot = name.map { table.existingSlot(of: $0) }
            guard
                let registration = table.remove(
                    id: registrationID, slot: slot,
                    where: { $0.matchesRemoval(nameSlot: nameSlot, object: object) })
            else { return false }
            if let probes {
                reportFilterDeath(of: registration, endingFor: reason, to: probes)
                probes.emit(.removed(registration: registration.id, reason: reason, callsite: callsite))
            }
            return true
        }
    }

    /// Ends one registration by id, whatever its name and object filter: a token's `cancel()`;
    /// `callsite` is the call's, nil when no call ends it (an iterator released).
    @discardableResult
    func end(registrationID: UInt64, slot: UInt32, reason: ProbeEvent.RemovalReason, callsite: ProbeEvent.Callsite?)
        -> Bool
    {
        locked {
            guard let registration = table.remove(id: registrationID, slot: slot) else { return false }
            if let probes {
                reportFilterDeath(of: registration, endingFor: reason, to: probes)
                probes.emit(.removed(registration: registration.id, reason: reason, callsite: callsite))
            }
            return true
        }
    }

    /// Ends a registration found dead during a post.
    func purge(_ registration: Registration, reason: ProbeEvent.RemovalReason) {
        locked { end(registration, reason: reason, callsite: nil) }
    }

    /// Must be called with `lock` held.
    func end(_ registration: Registration, reason: ProbeEvent.RemovalReason, callsite: ProbeEvent.Callsite?) {
        guard table.remove(registration) else { return }
        guard let probes else { return }
        reportFilterDeath(of: registration, endingFor: reason, to: probes)
        probes.emit(.removed(registration: registration.id, reason: reason, callsite: callsite))
    }

    /// Whether the registration can still deliver: present, and its owner and object filter alive.
    func isLive(registrationID: UInt64, slot: UInt32) -> Bool {
        lock.withLock {
            guard let registration = table.find(id: registrationID, slot: slot) else { return false }
            if registration.hasObserver && registration.observer == nil { return false }
            if registration.objectFilterDied { return false }
            return true
        }
    }

    /// The name a live registration observes, `*` for every name; nil once it ended.
    func observedName(registrationID: UInt64, slot: UInt32) -> String? {
        lock.withLock {
            guard table.find(id: registrationID, slot: slot) != nil else { return nil }
            return table.name(ofSlot: slot)?.rawValue ?? "*"
        }
    }

    func tokenReleased(registrationID: UInt64, slot: UInt32) {
        lock.lock()
        defer { lock.unlock() }
        guard let registration = table.find(id: registrationID, slot: slot) else { return }
        let released = registration.kind == .ownerBound ? TokenState.boundToOwner : TokenState.dropped
        registration.tokenState.store(released, ordering: .relaxed)
        guard let probes else { return }
        // A filter that died first (the usual cause of the release) is told first.
        if registration.objectFilterDied { reportFoundFilterDeath(of: registration, to: probes) }
        probes.emit(.tokenDropped(registration: registrationID))
    }
}

extension Registration {
    /// Foundation's filter for `removeObserver(_:name:object:)`: a non-nil name must be the one
    /// observed (`nameSlot` is its slot, `.some(nil)` when nothing observes that name), and a
    /// non-nil object must be the registration's own object filter (or a value equal to it).
    func matchesRemoval(nameSlot: UInt32??, object: ObjectFilter) -> Bool {
        if let nameSlot {
            guard let nameSlot, nameSlot == slot else { return false }
        }
        // Most removals filter on no object: skip the weak load.
        if case .any = object { return true }
        return object.matchesRemoval(instance: self.object, value: valueFilter)
    }
}
