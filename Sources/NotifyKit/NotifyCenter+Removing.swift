public import Foundation
import NotifySystem
import Synchronization

extension NotifyCenter {
    /// Ends registrations: every registration of a target or owner, or the one of a ``NotifyToken``.
    ///
    /// A token of another center, a token already removed and an object with no registrations
    /// are ignored (the last is reported to probes, since it is usually a bug). A typed message
    /// ``ObservationToken`` passed as an object ends its registration (Foundation ignores it).
    public func removeObserver(_ observer: AnyObject, file: StaticString = #fileID, line: UInt = #line) {
        removeObserver(observer, name: nil, object: nil, file: file, line: line)
    }

    /// Ends the registrations of `observer` that match `name` and `object` (nil matches any).
    ///
    /// As in Foundation, a non-nil `object` matches only registrations filtered on that same
    /// object: a registration with no object filter is kept.
    public func removeObserver(
        _ observer: AnyObject, name: Notification.Name?, object: AnyObject?,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        // Foundation ignores an ObservationToken here; removing it is what the caller meant.
        if let token = observer as? ObservationToken {
            removeObserver(token)
            return
        }
        if let token = observer as? NotifyToken {
            guard token.link === link else { return }
            if end(
                registrationID: token.registrationID, slot: token.slot, reason: .explicit, name: name, object: object)
            {
                token.ended.store(true, ordering: .relaxed)
            }
            return
        }
        locked { removeRegistrations(of: observer, name: name, object: object, file: file, line: line) }
    }

    /// Must be called with `lock` held.
    private func removeRegistrations(
        of observer: AnyObject, name: Notification.Name?, object: AnyObject?, file: StaticString, line: UInt
    ) {
        let candidates = table.byObserver[ObjectIdentifier(observer)].map { $0.values.sorted { $0.id < $1.id } } ?? []
        let nameSlot = name.map { table.existingSlot(of: $0) }
        var removed = 0
        for registration in candidates {
            guard let current = registration.observer else {
                // Weak references are already nil inside deinit, so `removeObserver(self)` there
                // finds its own registrations dead at its own address: that is a removal.
                guard registration.matchesRemoval(nameSlot: nameSlot, object: object) else { continue }
                end(registration, reason: .explicit)
                removed += 1
                continue
            }
            guard current === observer, registration.matchesRemoval(nameSlot: nameSlot, object: object) else {
                continue
            }
            end(registration, reason: .explicit)
            removed += 1
        }
        if removed == 0, let probes {
            probes.emit(
                .removeMissed(
                    NotifyMissedRemoval(
                        observer: NotifyObjectRef(observer, serial: table.serials.serial(of: observer)),
                        name: name?.rawValue,
                        callsite: NotifyCallsite(file: file, line: line))))
        }
    }

    /// Ends one registration by id, if it matches Foundation's `name`/`object` removal filter (nil
    /// matches any); what a token's `cancel()` and `removeObserver(token…)` call.
    @discardableResult
    func end(
        registrationID: UInt64, slot: UInt32, reason: NotifyRemovalReason,
        name: Notification.Name? = nil, object: AnyObject? = nil
    ) -> Bool {
        locked {
            let nameSlot = name.map { table.existingSlot(of: $0) }
            guard
                let registration = table.remove(
                    id: registrationID, slot: slot,
                    where: { $0.matchesRemoval(nameSlot: nameSlot, object: object) })
            else { return false }
            probes?.emit(.removed(registration: registration.id, reason: reason))
            return true
        }
    }

    /// Ends a registration found dead during a post.
    func purge(_ registration: Registration, reason: NotifyRemovalReason) {
        locked { end(registration, reason: reason) }
    }

    /// Must be called with `lock` held.
    private func end(_ registration: Registration, reason: NotifyRemovalReason) {
        guard table.remove(registration) else { return }
        probes?.emit(.removed(registration: registration.id, reason: reason))
    }

    /// Whether the registration can still deliver: present, and its owner and object filter alive.
    func isLive(registrationID: UInt64, slot: UInt32) -> Bool {
        lock.withLock {
            guard let registration = table.find(id: registrationID, slot: slot) else { return false }
            if registration.hasObserver && registration.observer == nil { return false }
            if registration.hasObjectFilter && registration.object == nil { return false }
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
        probes?.emit(.tokenDropped(registration: registrationID))
    }
}

extension Registration {
    /// Foundation's filter for `removeObserver(_:name:object:)`: a non-nil name must be the one
    /// observed (`nameSlot` is its slot, `.some(nil)` when nothing observes that name), and a
    /// non-nil object must be the registration's own object filter.
    func matchesRemoval(nameSlot: UInt32??, object: AnyObject?) -> Bool {
        if let nameSlot {
            guard let nameSlot, nameSlot == slot else { return false }
        }
        if let object {
            guard let own = self.object, own === object else { return false }
        }
        return true
    }
}
