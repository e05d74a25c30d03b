import NotifyWire

extension InspectorState {
    mutating func applyRegistration(_ registration: TraceRegistration) {
        observe(registration.timestamp)
        if registrationSlots[registration.id] != nil { return }  // a repeated snapshot
        totals.registrations &+= 1
        guard liveRegistrations < configuration.maximumLiveRegistrations else {
            loss.untrackedRegistrations &+= 1
            return
        }
        let nameIndex = registration.name.map { nameSlot(for: $0) } ?? 0
        let firstTime = !nameRows[nameIndex].everRegistered
        nameRows[nameIndex].liveObservers += 1
        // Kept with one center too: a second one may be introduced later in the stream.
        if nameIndex == 0 { liveWildcardsByCenter[centerIndex(registration.center), default: 0] += 1 }
        nameRows[nameIndex].everRegistered = true
        nameRows[nameIndex].lastUsed = now
        let registeredAt = registration.registrationTime
        if nameRows[nameIndex].liveSince.map({ registeredAt < $0 }) ?? true {
            nameRows[nameIndex].liveSince = registeredAt
        }
        if registration.mainThreadOnly { nameRows[nameIndex].declaresMainOnly = true }
        if registration.kind.isMessage {
            totals.messageRegistrations &+= 1
            nameRows[nameIndex].isMessage = true
            switch registration.kind {
            case .mainActorMessage: nameRows[nameIndex].messageKind = .mainActor
            case .asyncMessage: nameRows[nameIndex].messageKind = .async
            default: break
            }
        }
        let namePosts = nameIndex == 0 ? totals.posts : nameRows[nameIndex].posts
        let row = ObserverRow(
            registration, observer: registration.observer.map { definitions.object($0) },
            objectFilter: registration.object.map { definitions.object($0) },
            callsite: definitions.callsite(registration.callsite), nameSlot: nameIndex, namePosts: namePosts,
            center: centerIndex(registration.center))
        let slot: Int
        if let free = freeRowSlots.popLast() {
            slot = free
            rows[slot] = row
        } else {
            slot = rows.count
            rows.append(row)
        }
        registrationSlots.insert(registration.id, slot)
        liveRegistrations += 1
        markActive(threadSlot(for: registration.thread))
        if let delivered = registration.deliveries, delivered > 0 {
            // A snapshot's count of the runs before it; the names' and threads' come as history.
            beganLate = true
            rows[slot].deliveries &+= delivered
            if nameIndex == 0 { nameRows[0].deliveries &+= delivered }
        }
        if registration.preexisting { ruleState.pastPending = true }

        neverPostedRegistered(nameIndex)
        growthRegistered(slot, row)
        selfRetainingRegistered(slot, row)
        duplicateRegistered(slot, row)
        prematureRemovalRegistered(slot, row)
        if firstTime { fileRegisteredName(nameIndex) }
        unheardPostRegistered(slot, row, firstTimeForName: firstTime)
    }

    mutating func applyRemoval(_ removal: TraceRemoval) {
        observe(removal.timestamp)
        guard let slot = registrationSlots[removal.registration], rows[slot].isLive else {
            loss.unknownRegistrationEvents &+= 1
            return
        }
        totals.removals &+= 1
        markActive(threadSlot(for: removal.thread))
        rows[slot].removal = RemovalInfo(
            reason: removal.reason, at: removal.timestamp, thread: removal.thread, callsite: removal.callsite)
        if removal.reason == .tokenCancelled { rows[slot].token = .cancelled(at: removal.timestamp) }
        rows[slot].pendingMessages = 0
        liveRegistrations -= 1
        let nameSlot = rows[slot].nameSlot
        nameRows[nameSlot].liveObservers -= 1
        if nameSlot == 0, let live = liveWildcardsByCenter[rows[slot].center] {
            liveWildcardsByCenter[rows[slot].center] = live > 1 ? live - 1 : nil
        }
        nameRows[nameSlot].lastUsed = now
        let nameIsIdle = nameRows[nameSlot].liveObservers == 0
        if nameIsIdle {
            nameRows[nameSlot].liveSince = nil
            nameRows[nameSlot].checkpointsWaiting = 0
        }

        let row = rows[slot]
        orphanRemoved(slot)
        prematureRemovalRemoved(slot, row, reason: removal.reason)
        deadParticipantRemoved(slot, row, reason: removal.reason)
        selfRetainingRemoved(slot)
        duplicateRemoved(slot)
        growthRemoved(slot, row)
        if nameIsIdle { neverPostedNameIdle(nameSlot) }
        if !ruleState.otherCenterWaits.isEmpty { otherCenterRegistrationEnded(row) }

        retiring.append(removal.registration)
        let removed = retiring.count - retiringHead
        if removed > configuration.maximumRemovedRegistrations {
            retireOldest()
            loss.registrationsEvictedByCap &+= 1
        }
    }

    mutating func applyTokenDrop(_ drop: TraceTokenDrop) {
        observe(drop.timestamp)
        guard let slot = registrationSlots[drop.registration], rows[slot].isLive else {
            loss.unknownRegistrationEvents &+= 1
            return
        }
        totals.tokenDrops &+= 1
        // An owner-bound registration ends with its owner: releasing its token orphans nothing.
        rows[slot].token =
            rows[slot].kind == .ownerBound ? .boundToOwner(at: drop.timestamp) : .dropped(at: drop.timestamp)
        rows[slot].deliveriesAtTokenDrop = rows[slot].deliveries
        duplicateTokenDropped(slot)
        orphanTokenDropped(slot)
    }

    /// A typed message queued for one observer: its mailbox or buffer depth, and a drop when a
    /// full sequence buffer made room.
    mutating func applyEnqueue(_ enqueue: TraceMessageEnqueue) {
        observe(enqueue.timestamp)
        totals.messageEnqueues &+= 1
        if enqueue.droppedOldest { totals.messagesDropped &+= 1 }
        history.enqueued(enqueue)
        guard let slot = registrationSlots[enqueue.registration], rows[slot].isLive else {
            loss.unknownRegistrationEvents &+= 1
            return
        }
        rows[slot].enqueuedMessages &+= 1
        rows[slot].pendingMessages = max(0, enqueue.pending)
        rows[slot].maximumPendingMessages = max(rows[slot].maximumPendingMessages, rows[slot].pendingMessages)
        if enqueue.droppedOldest { rows[slot].droppedMessages &+= 1 }
    }

    mutating func applyMissedRemoval(_ missed: TraceMissedRemoval) {
        observe(missed.timestamp)
        totals.missedRemovals &+= 1
        let entry = MissedRemoval(
            at: missed.timestamp, observer: definitions.object(missed.observer), name: missed.name,
            callsite: definitions.callsite(missed.callsite))
        missedRemovals.append(entry)
        orphanMissedRemoval(entry)
        missedRemovalFound(entry, thread: missed.thread)
    }

    /// Retires removed registrations older than the retirement age at stream time `now`.
    mutating func retireRemoved() {
        let age = configuration.retireRemovedAfter
        while retiringHead < retiring.count {
            guard let slot = registrationSlots[retiring[retiringHead]], let removal = rows[slot].removal else {
                retiringHead += 1
                continue
            }
            guard removal.at &+ age <= now else { break }
            retireOldest()
        }
        compactRetiring()
    }

    private mutating func retireOldest() {
        guard retiringHead < retiring.count else { return }
        let id = retiring[retiringHead]
        retiringHead += 1
        guard let slot = registrationSlots.remove(id) else { return }
        rows[slot] = ObserverRow.vacant
        freeRowSlots.append(slot)
        loss.retiredRegistrations &+= 1
        compactRetiring()
    }

    private mutating func compactRetiring() {
        if retiringHead > 1_024, retiringHead * 2 > retiring.count {
            retiring.removeFirst(retiringHead)
            retiringHead = 0
        }
    }
}
