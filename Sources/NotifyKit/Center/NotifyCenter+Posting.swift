public import Foundation
import NotifySystem
import Synchronization

extension NotifyCenter {
    /// Delivers `notification` to every matching registration, in registration order.
    ///
    /// Handlers on `.posting` and `.operationQueue` targets have run when `post` returns; the
    /// others have been handed off. Observers registered by a handler during this post do not
    /// receive it; observers removed by a handler during this post, before their turn, are skipped.
    /// With no probe attached a post allocates nothing.
    ///
    /// A class instance matches filters on that same instance; a `Hashable` value (`5`, `"doc-1"`)
    /// matches filters on an equal value; any other value only registrations without an object filter.
    public func post(_ notification: Notification, file: StaticString = #fileID, line: UInt = #line) {
        let object = Self.instance(in: notification.object)
        post(notification, object: object, isValue: object == nil && notification.object != nil, file: file, line: line)
    }

    /// Builds a notification and posts it; see ``post(_:file:line:)-(Notification,_,_)``.
    public func post(
        name: Notification.Name, object: AnyObject? = nil, userInfo: [AnyHashable: Any]? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        post(
            Notification(name: name, object: object, userInfo: userInfo), object: object, isValue: false, file: file,
            line: line)
    }

    /// Builds a notification whose object may be a value and posts it; see ``post(_:file:line:)-(Notification,_,_)``.
    @_disfavoredOverload
    public func post(
        name: Notification.Name, object: Any?, userInfo: [AnyHashable: Any]? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        post(Notification(name: name, object: object, userInfo: userInfo), file: file, line: line)
    }

    /// The object of a notification when it is a class instance; values have no identity.
    static func instance(in object: Any?) -> AnyObject? {
        guard let object, type(of: object) is AnyClass else { return nil }
        return object as AnyObject
    }

    static func identity(of object: Any?) -> ObjectIdentifier? {
        instance(in: object).map(ObjectIdentifier.init)
    }

    @inline(__always)
    private func post(_ notification: Notification, object: AnyObject?, isValue: Bool, file: StaticString, line: UInt) {
        // The posted object's address, compared with each registration's filter; 0 for none.
        let objectKey = isValue ? Registration.valueKey : object.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0
        let context = ThreadContext.currentUnretained
        postCache.withStripe(forThread: context._withUnsafeGuaranteedRef { $0.thread.id }) { stripe in
            stripe.lock.lock()
            if stripe.version == tableVersion.load(ordering: .relaxed), let copy = stripe.copy(for: notification.name) {
                let named = copy.entries
                let wildcard = stripe.wildcard
                guard let probes = stripe.probes else {
                    stripe.lock.unlock()
                    postUnwatched(
                        notification, objectKey: objectKey, named: named, wildcard: wildcard,
                        counterIndex: copy.counterIndex, context: context)
                    return
                }
                stripe.lock.unlock()
                // A posted object's serial is the table's to tell.
                if objectKey == 0 {
                    context._withUnsafeGuaranteedRef { context in
                        postProbed(
                            notification, object: nil, objectKey: 0, named: named, wildcard: wildcard,
                            probes: probes, file: file, line: line, context: context)
                    }
                    return
                }
            } else {
                stripe.lock.unlock()
            }
            postReadingTable(notification, object: object, objectKey: objectKey, stripe: stripe, file: file, line: line)
        }
    }

    /// A post whose thread has no valid copy of the registrations: reads them under the lock.
    private func postReadingTable(
        _ notification: Notification, object: AnyObject?, objectKey: UInt, stripe: PostCache.Stripe,
        file: StaticString, line: UInt
    ) {
        lock.lock()
        // A stored-property projection, not a method on `table`: a method call would copy the
        // whole table struct (and retain every collection in it) on each post.
        let slot = table.slots[notification.name]
        let named = slot.map { table.buckets[Int($0)].entries } ?? []
        let wildcard = table.wildcard.entries
        // What is read here may be copied into the stripe: a removal from these buckets sweeps.
        if let slot, !table.buckets[Int(slot)].copied { table.buckets[Int(slot)].copied = true }
        if !table.wildcard.copied { table.wildcard.copied = true }
        let probes = self.probes
        let version = tableVersion.load(ordering: .relaxed)
        if let probes {
            let objectRef = postedObjectRef(object, objectKey: objectKey, in: notification)
            lock.unlock()
            // A probed post counts nothing: the index is looked up when a copy is first used unprobed.
            remember(
                NameCopy(entries: named, counterIndex: 0), wildcard, probes, for: notification.name, from: version,
                in: stripe)
            ThreadContext.currentUnretained._withUnsafeGuaranteedRef { context in
                postProbed(
                    notification, object: objectRef, objectKey: objectKey,
                    named: named, wildcard: wildcard, probes: probes, file: file, line: line, context: context)
            }
            return
        }
        let counterIndex = recordedHistory.counterIndex(for: notification.name)
        lock.unlock()
        remember(
            NameCopy(entries: named, counterIndex: counterIndex), wildcard, nil, for: notification.name, from: version,
            in: stripe)
        postUnwatched(
            notification, objectKey: objectKey, named: named, wildcard: wildcard, counterIndex: counterIndex,
            context: ThreadContext.currentUnretained)
    }

    /// A post no probe watches: delivers, then adds the post and the deliveries it made on this
    /// thread to the thread's counters (deliveries handed off count where they run).
    @inline(__always)
    private func postUnwatched(
        _ notification: Notification, objectKey: UInt, named: ContiguousArray<Registration>,
        wildcard: ContiguousArray<Registration>, counterIndex: UInt32, context: Unmanaged<ThreadContext>
    ) {
        var delivered: UInt64 = 0
        var reached = false
        inRegistrationOrder(named, wildcard) { registration in
            switch deliver(notification, to: registration, objectKey: objectKey, counterIndex: counterIndex) {
            case .delivered:
                delivered &+= 1
                reached = true
            case .handedOff, .observerGone: reached = true
            case .declined: break
            }
        }
        guard countingUnwatched.load(ordering: .relaxed) else { return }
        context._withUnsafeGuaranteedRef { context in
            context.counters(for: self)._withUnsafeGuaranteedRef {
                $0.countPost(index: counterIndex, deliveries: delivered, reached: reached)
            }
        }
    }

    /// Keeps private copies of what a post read from table `version` (with the probes attached
    /// then) in the posting thread's stripe. The first post after the table changes only marks the
    /// stripe, so a table that changes between every post costs no copies.
    private func remember(
        _ named: NameCopy, _ wildcard: ContiguousArray<Registration>, _ probes: ProbeSet?,
        for name: Notification.Name, from version: UInt64, in stripe: PostCache.Stripe
    ) {
        var stale: PostCache.Stripe.Copies?
        stripe.lock.lock()
        // Before the version check: a removal that bumps the version after it sweeps this stripe.
        stripe.occupied.store(true, ordering: .sequentiallyConsistent)
        if tableVersion.load(ordering: .sequentiallyConsistent) == version {
            if stripe.version != version {
                // The stripe's own probe set: posts on other stripes retain another object.
                stale = stripe.start(version: version, wildcard: wildcard.privateCopy, probes: probes?.privateCopy)
            } else {
                stale = stripe.store(
                    NameCopy(entries: named.entries.privateCopy, counterIndex: named.counterIndex), for: name)
            }
        }
        stripe.lock.unlock()
        withExtendedLifetime(stale) {}
    }

    /// The posted object as events report it; must be called with `lock` held (serials are the table's).
    private func postedObjectRef(_ object: AnyObject?, objectKey: UInt, in notification: Notification)
        -> ProbeEvent.ObjectRef?
    {
        if let object { return ProbeEvent.ObjectRef(object, serial: table.serials.serial(of: object)) }
        guard objectKey == Registration.valueKey, let posted = notification.object else { return nil }
        guard case .value(let value) = ObjectFilter(posted) else {
            return ProbeEvent.ObjectRef(valueOfType: type(of: posted), serial: 0)
        }
        return ProbeEvent.ObjectRef(valueOfType: type(of: value.base), serial: table.serials.serial(ofValue: value))
    }

    /// Calls `body` with the entries of both sorted buckets merged by id.
    @inline(__always)
    private func inRegistrationOrder(
        _ named: ContiguousArray<Registration>, _ wildcard: ContiguousArray<Registration>,
        _ body: (Registration) -> Void
    ) {
        if wildcard.isEmpty {
            // Indexing borrows each element; a for-in iterator would retain and release it.
            var i = 0
            while i < named.count {
                body(named[i])
                i += 1
            }
            return
        }
        var i = 0
        var j = 0
        while i < named.count || j < wildcard.count {
            if j == wildcard.count || (i < named.count && named[i].id < wildcard[j].id) {
                body(named[i])
                i += 1
            } else {
                body(wildcard[j])
                j += 1
            }
        }
    }

    /// Whether the registration takes this post; purges it when its object filter has died.
    @inline(__always)
    private func accepts(_ registration: Registration, objectKey: UInt, of notification: Notification) -> Bool {
        if registration.hasObjectFilter {
            guard registration.matchesObject(objectKey) else { return false }
            if objectKey == Registration.valueKey {
                guard registration.valueFilter?.matches(posted: notification.object) ?? false else { return false }
            } else if registration.object == nil {
                purge(registration, reason: .objectDeallocated)
                return false
            }
        }
        return registration.isActive.load(ordering: .acquiring)
    }

    /// What an unwatched post did for one registration.
    private enum Outcome {
        case declined, delivered, handedOff, observerGone
    }

    @inline(__always)
    private func deliver(
        _ notification: Notification, to registration: Registration, objectKey: UInt, counterIndex: UInt32
    ) -> Outcome {
        guard accepts(registration, objectKey: objectKey, of: notification) else { return .declined }
        if registration.deliversInline {
            if !registration.invoke(notification) {
                purge(registration, reason: .observerDeallocated)
                return .observerGone
            }
            if countingUnwatched.load(ordering: .relaxed) { registration.countDelivery() }
            return .delivered
        }
        handOff(notification, to: registration, trace: nil, counterIndex: counterIndex)
        return .handedOff
    }

    /// Runs the registration's handler where its target says. Unwatched (no `trace`), the
    /// delivery counts on the thread that runs it, under the name's `counterIndex`.
    private func handOff(
        _ notification: Notification, to registration: Registration, trace: DeliveryTrace?, counterIndex: UInt32 = 0
    ) {
        let box = UncheckedNotification(notification)
        let handedOff = trace == nil ? 0 : ThreadContext.current.now()
        registration.target.run { [self] in
            guard registration.isActive.load(ordering: .acquiring) else { return }
            let delivered: Bool
            if let trace {
                delivered = trace.timedInvoke(registration, box.notification, handedOff: handedOff)
            } else {
                delivered = registration.invoke(box.notification)
                if delivered && countingUnwatched.load(ordering: .relaxed) {
                    registration.countDelivery()
                    ThreadContext.currentUnretained._withUnsafeGuaranteedRef { context in
                        context.counters(for: self)._withUnsafeGuaranteedRef { $0.countDelivery(index: counterIndex) }
                    }
                }
            }
            if !delivered { purge(registration, reason: .observerDeallocated) }
        }
    }

    /// The instrumented post: one clock read for the post and one per delivery. Each handler's
    /// start is the previous reading, so a duration includes the few nanoseconds spent
    /// handing the previous event to the probes. `context` is the calling thread's, unretained.
    private func postProbed(
        _ notification: Notification, object: ProbeEvent.ObjectRef?, objectKey: UInt,
        named: ContiguousArray<Registration>, wildcard: ContiguousArray<Registration>, probes: ProbeSet,
        file: StaticString, line: UInt, context: ThreadContext
    ) {
        if let parent = context.asyncDeliveryParent {
            context.withinPost(parent) {
                postProbed(
                    notification, object: object, objectKey: objectKey, named: named, wildcard: wildcard,
                    probes: probes, file: file, line: line, context: context)
            }
            return
        }
        let thread = context.thread.id
        let postID = context.takePostID()
        // Count what will be delivered; while probed, also end registrations whose object filter
        // has died, so the dashboard learns of a dead sender without waiting for address reuse.
        let matched = countMatched(notification, objectKey: objectKey, named: named, wildcard: wildcard)
        let name = notification.name
        probes.prepareRings(context)
        var clock = context.now()
        let hasUserInfo = notification.userInfo != nil
        let depth = context.postDepth + 1
        let parentPostID = context.currentPostID
        Self.emitPosted(
            probes, name: name, context: context, at: clock, postID: postID, object: object,
            hasUserInfo: hasUserInfo, matched: matched, depth: depth, parentPostID: parentPostID, file: file,
            line: line)
        let scope = NotifyPostScope(
            postID: postID, name: name.rawValue, callsite: ProbeEvent.Callsite(file: file, line: line),
            matched: matched,
            parentPostID: parentPostID, message: nil, thread: thread)
        probes.withinPost(scope) {
            context.withinPost(postID) {
                inRegistrationOrder(named, wildcard) { registration in
                    guard accepts(registration, objectKey: objectKey, of: notification) else { return }
                    if registration.deliversInline {
                        if let contextProbe = probes.contextProbe {
                            guard
                                Self.deliverWithin(
                                    contextProbe, notification, to: registration, probes: probes, context: context,
                                    postID: postID)
                            else {
                                purge(registration, reason: .observerDeallocated)
                                return
                            }
                            clock = context.now()
                            return
                        }
                        guard registration.invoke(notification) else {
                            purge(registration, reason: .observerDeallocated)
                            return
                        }
                        clock = Self.emitDelivered(
                            probes, name: name, context: context, postID: postID, registration: registration.id,
                            postingThread: thread, start: clock)
                    } else {
                        handOffProbed(
                            notification, to: registration, probes: probes, postID: postID, postingThread: thread)
                        // A hand-off to an operation queue waits; the next handler starts now, not before.
                        clock = context.now()
                    }
                }
            }
        }
    }

    /// An inline handler run inside the context probe's delivery scope, timed inside it, so the
    /// handler's duration leaves out what the context probe does around it.
    @inline(never)
    private static func deliverWithin(
        _ contextProbe: any NotifyContextProbe, _ notification: Notification, to registration: Registration,
        probes: ProbeSet, context: ThreadContext, postID: UInt64
    ) -> Bool {
        let call = NotifyHandlerCall(
            postID: postID, registration: registration.id, name: notification.name.rawValue,
            registeredAt: registration.callsite, target: .posting, targetLabel: nil, thread: context.thread, wait: 0)
        return contextProbe.withinDelivery(call, resuming: nil) {
            let start = context.now()
            guard registration.invoke(notification) else { return false }
            _ = emitDelivered(
                probes, name: notification.name, context: context, postID: postID, registration: registration.id,
                postingThread: call.thread.id, start: start)
            return true
        }
    }

    /// The registrations a probed post will reach; those whose object filter died are ended.
    @inline(never)
    private func countMatched(
        _ notification: Notification, objectKey: UInt, named: ContiguousArray<Registration>,
        wildcard: ContiguousArray<Registration>
    ) -> Int {
        var matched = 0
        inRegistrationOrder(named, wildcard) { registration in
            guard registration.isActive.load(ordering: .acquiring) else { return }
            if registration.objectFilterDied {
                purge(registration, reason: .objectDeallocated)
                return
            }
            if registration.matchesObject(objectKey, of: notification) { matched += 1 }
        }
        return matched
    }

    @inline(never)
    private func handOffProbed(
        _ notification: Notification, to registration: Registration, probes: ProbeSet, postID: UInt64,
        postingThread: UInt64
    ) {
        let carried = probes.contextProbe.flatMap { contextProbe in
            contextProbe.handOff(
                NotifyHandlerCall(
                    postID: postID, registration: registration.id, name: notification.name.rawValue,
                    registeredAt: registration.callsite, target: registration.target.kind,
                    targetLabel: registration.target.label, thread: ThreadContext.current.thread, wait: 0))
        }
        let trace = DeliveryTrace(
            probes: probes, postID: postID, name: notification.name, postingThread: postingThread, carried: carried)
        handOff(notification, to: registration, trace: trace)
    }

    // The records are built in frames of their own, gone before the next handler runs: inlined
    // into the post, they would stay on the stack under every post a handler makes in turn.

    @inline(never)
    private static func emitPosted(
        _ probes: ProbeSet, name: Notification.Name, context: ThreadContext, at clock: UInt64, postID: UInt64,
        object: ProbeEvent.ObjectRef?, hasUserInfo: Bool, matched: Int, depth: Int, parentPostID: UInt64,
        file: StaticString, line: UInt
    ) {
        probes.emit(named: name, context: context) { slot, center in
            .posted(
                at: clock, postID: postID, object: object, hasUserInfo: hasUserInfo, matched: matched, depth: depth,
                parentPostID: parentPostID, file: file, line: line, message: nil, nameSlot: slot, center: center)
        }
    }

    /// Emits the delivery of a handler that ran from `start` until now; returns now.
    @inline(never)
    private static func emitDelivered(
        _ probes: ProbeSet, name: Notification.Name, context: ThreadContext, postID: UInt64, registration: UInt64,
        postingThread: UInt64, start: UInt64
    ) -> UInt64 {
        let end = context.now()
        let depth = context.postDepth
        probes.emit(named: name, context: context) { slot, center in
            .delivered(
                at: end, postID: postID, registration: registration, postingThread: postingThread,
                target: .posting, start: start, wait: 0, depth: depth, nameSlot: slot, center: center)
        }
        return end
    }
}

/// What a probed delivery needs to describe itself.
struct DeliveryTrace: Sendable {
    let probes: ProbeSet
    let postID: UInt64
    let name: Notification.Name
    let postingThread: UInt64
    /// What the context probe's ``NotifyContextProbe/handOff(_:)`` returned for this hand-off.
    var carried: (any Sendable)? = nil

    /// Runs a handed-off handler between two clock reads and emits the delivery; false if the
    /// observer is gone.
    func timedInvoke(_ registration: Registration, _ notification: Notification, handedOff: UInt64) -> Bool {
        let context = ThreadContext.current
        context.name(after: registration.target)
        probes.prepareRings(context)
        guard let contextProbe = probes.contextProbe else {
            return timedInvoke(registration, notification, handedOff: handedOff, context: context)
        }
        let now = context.now()
        let call = NotifyHandlerCall(
            postID: postID, registration: registration.id, name: name.rawValue, registeredAt: registration.callsite,
            target: registration.target.kind, targetLabel: registration.target.label, thread: context.thread,
            wait: now > handedOff ? now - handedOff : 0)
        return contextProbe.withinDelivery(call, resuming: carried) {
            timedInvoke(registration, notification, handedOff: handedOff, context: context)
        }
    }

    private func timedInvoke(
        _ registration: Registration, _ notification: Notification, handedOff: UInt64, context: ThreadContext
    ) -> Bool {
        context.withinPost(postID) {
            let start = context.now()
            guard registration.invoke(notification) else { return false }
            let end = context.now()
            emitDelivery(
                of: registration, start: start, end: end, wait: start > handedOff ? start - handedOff : 0,
                context: context)
            return true
        }
    }

    @inline(__always)
    func emitDelivery(
        of registration: Registration, start: UInt64, end: UInt64, wait: UInt64,
        context: ThreadContext
    ) {
        probes.emit(
            .delivered(
                at: end, postID: postID, registration: registration.id, postingThread: postingThread,
                target: registration.target.kind, start: start, wait: wait, depth: context.postDepth),
            named: name, context: context)
    }
}

/// Carries a notification into a hand-off; Foundation does not mark `Notification` Sendable, and
/// a center must pass it between threads exactly as `NotificationCenter` does.
struct UncheckedNotification: @unchecked Sendable {
    let notification: Notification
    init(_ notification: Notification) { self.notification = notification }
}
