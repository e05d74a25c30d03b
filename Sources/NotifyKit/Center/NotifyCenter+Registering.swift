public import Foundation
import NotifySystem

extension NotifyCenter {
    /// Registers a method of `observer`, the Linux analog of `addObserver(_:selector:name:object:)`.
    ///
    /// The observer is held weakly and kept alive for the length of each callout; when it
    /// deallocates, its registrations end at the next post that would reach them. There is no
    /// token: remove with `removeObserver(observer)`.
    ///
    /// ```swift
    /// center.addObserver(self, action: CartScreen.cartDidChange, name: .cartDidChange, object: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - observer: The object whose method runs; held weakly.
    ///   - action: An unapplied method, such as `Screen.refresh`; it does not capture the observer.
    ///   - name: The name to observe, or nil for every name.
    ///   - object: The sender to observe, or nil for any: a class instance is matched by identity
    ///     and held weakly, a `Hashable` value by `==`. Any other value is a precondition failure
    ///     (Foundation would silently never match it).
    ///   - file: The call's `#fileID`: the registration's site in events.
    ///   - line: The call's line.
    public func addObserver<Observer: AnyObject>(
        _ observer: Observer,
        action: @escaping (Observer) -> (Notification) -> Void,
        name: Notification.Name?,
        object: Any?,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        let filter = ObjectFilter.stored(object, file: file, line: line)
        _ = register(name: name) { id, slot in
            ObserverRegistration(
                id: id, slot: slot, object: filter.instance, valueFilter: filter.value, target: .posting, kind: .target,
                observer: observer,
                contextIsObserver: false, mainThreadOnly: false,
                handler: { observer, notification in action(unsafeDowncast(observer, to: Observer.self))(notification)
                },
                file: file, line: line)
        }
    }

    /// Registers a block, Foundation's `addObserver(forName:object:queue:using:)`.
    ///
    /// The center owns the block until the token is cancelled or passed to `removeObserver`.
    /// Releasing the token does **not** end the registration; the center reports it as dropped.
    ///
    /// - Parameters:
    ///   - name: The name to observe, or nil for every name.
    ///   - object: The sender to observe, or nil for any: a class instance is matched by identity
    ///     and held weakly, a `Hashable` value (`5`, `"doc-1"`) by `==`. Any other value is a
    ///     precondition failure (Foundation would silently never match it).
    ///   - queue: nil runs the block on the posting thread; a queue runs it there, and `post`
    ///     waits for that operation (inline when the poster is already on the queue).
    ///   - block: The handler, given the notification.
    ///   - file: The call's `#fileID`: the registration's site in events.
    ///   - line: The call's line.
    /// - Returns: The token that ends the registration; it is an `NSObjectProtocol`, as
    ///   Foundation's is.
    public func addObserver(
        forName name: Notification.Name?,
        object: Any?,
        queue: OperationQueue?,
        using block: @escaping @Sendable (Notification) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> NotifyToken {
        addObserver(
            forName: name, object: object, deliverOn: queue.map { .operationQueue($0) } ?? .posting,
            mainThreadOnly: false, using: block, file: file, line: line)
    }

    /// Registers a block delivered on `target`: a queue, a dispatch queue, a thread or main.
    ///
    /// - Parameters:
    ///   - name: The name to observe, or nil for every name.
    ///   - object: The sender to observe, or nil for any; matched as in
    ///     ``addObserver(forName:object:queue:using:file:line:)``.
    ///   - target: Where the block runs.
    ///   - mainThreadOnly: Declares that the block must run on the main thread (it touches UI
    ///     state). The center still delivers where `target` says; probes see the declaration, so
    ///     notifytop can flag a delivery on another thread.
    ///   - block: The handler, given the notification.
    ///   - file: The call's `#fileID`: the registration's site in events.
    ///   - line: The call's line.
    /// - Returns: The token that ends the registration; releasing it does not.
    public func addObserver(
        forName name: Notification.Name?,
        object: Any?,
        deliverOn target: DeliveryTarget,
        mainThreadOnly: Bool = false,
        using block: @escaping @Sendable (Notification) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> NotifyToken {
        addBlock(
            name: name, object: object, target: target, kind: .block, mainThreadOnly: mainThreadOnly,
            block: block, file: file, line: line)
    }

    /// Registers a handler bound to `owner`, which receives it, so the handler never captures `self`.
    ///
    /// The owner is held weakly; the registration ends when the owner deallocates or the token is
    /// cancelled. Releasing the token does not end it, so the result may be ignored.
    ///
    /// ```swift
    /// center.observe(.themeDidChange, owner: self) { screen, note in screen.applyTheme() }
    /// ```
    @discardableResult
    public func observe<Owner: AnyObject>(
        _ name: Notification.Name?,
        object: Any? = nil,
        owner: Owner,
        deliverOn target: DeliveryTarget = .posting,
        mainThreadOnly: Bool = false,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ handler: @escaping (Owner, Notification) -> Void
    ) -> NotifyToken {
        let capturesOwner =
            OwnerHandler(handler: handler).context == UnsafeRawPointer(Unmanaged.passUnretained(owner).toOpaque())
        let filter = ObjectFilter.stored(object, file: file, line: line)
        let registration = register(name: name) { id, slot in
            ObserverRegistration(
                id: id, slot: slot, object: filter.instance, valueFilter: filter.value, target: target,
                kind: .ownerBound, observer: owner, contextIsObserver: capturesOwner, mainThreadOnly: mainThreadOnly,
                handler: { owner, notification in handler(unsafeDowncast(owner, to: Owner.self), notification) },
                file: file, line: line)
        }
        return NotifyToken(registrationID: registration.id, slot: registration.slot, link: link)
    }

    func addBlock(
        name: Notification.Name?, object: Any?, target: DeliveryTarget, kind: ProbeEvent.RegistrationKind,
        mainThreadOnly: Bool = false, block: @escaping @Sendable (Notification) -> Void, file: StaticString, line: UInt
    ) -> NotifyToken {
        let filter = ObjectFilter.stored(object, file: file, line: line)
        let registration = register(name: name) { id, slot in
            BlockRegistration(
                id: id, slot: slot, object: filter.instance, valueFilter: filter.value, target: target, kind: kind,
                mainThreadOnly: mainThreadOnly, handler: block, file: file, line: line)
        }
        return NotifyToken(registrationID: registration.id, slot: registration.slot, link: link)
    }

    private func register(name: Notification.Name?, _ make: (UInt64, UInt32) -> Registration) -> Registration {
        lock.lock()
        defer { lock.unlock() }
        let slot = table.claimSlot(for: name)
        let registration = make(table.nextID(), slot)
        table.insert(registration, slot: slot)
        if let valueFilter = registration.valueFilter {
            registration.objectSerial = UInt32(truncatingIfNeeded: table.serials.serial(registering: valueFilter))
        }
        tableChanged()
        if let probes {
            // Emitted under the lock, so a probe never sees a removal before its registration.
            probes.emit(.registered(registration.info(preexisting: false, name: name)))
        }
        return registration
    }
}
