import NotifyWire

extension InspectorState {
    mutating func applyPost(_ post: TracePost) {
        let time = post.timestamp
        observe(time)
        totals.posts &+= 1
        postRate.record(at: time)
        let threadSlot = threadSlot(for: post.thread)
        threadRows[threadSlot].posts &+= 1
        threadRows[threadSlot].lastActive = time
        markActive(threadSlot)
        let onMain = threadRows[threadSlot].isMain
        let slot = nameSlot(for: post.name)
        if let message = post.message {
            nameRows[slot].isMessage = true
            nameRows[slot].messageKind = message
        }
        let center = centerIndex(post.center)
        // The `*` row counts the posts a wildcard observer could hear: with several centers, only
        // those to a center where one is registered.
        let audible = liveWildcardsByCenter[center] != nil
        if audible { wildcardAudiblePosts &+= 1 }
        if !carriesSeveralCenters || audible { nameRows[0].posts &+= 1 }
        nameRows[slot].posts &+= 1
        nameRows[slot].postingThreads.insert(post.thread)
        nameRows[slot].lastPostAt = time
        nameRows[slot].lastPostThread = post.thread
        nameRows[slot].lastUsed = time
        let ordinal = history.posted(
            post, nameSlot: slot, center: center, previousOfName: nameRows[slot].newestPost.ordinal,
            threadIsMain: onMain, coalesced: explainFacts.takeCoalesced(name: post.name))
        nameRows[slot].newestPost = PostHistory.NewestPost(
            ordinal: ordinal, seq: post.seq, postID: post.postID, time: time, callsite: post.callsite,
            matched: post.matched)
        if !ruleState.centerPosts.isEmpty { prematureRemovalPosted(post.name, center: center) }
        if carriesSeveralCenters { notePostedCenter(center, nameSlot: slot) }

        if post.matched == 0 {
            if nameRows[slot].postsWithNoObserver == 0, !nameRows[slot].everRegistered { fileUnheardName(slot) }
            nameRows[slot].postsWithNoObserver &+= 1
            unheardPosted(post, nameSlot: slot)
        } else if !ruleState.unheard.isEmpty {
            unheardPostHeard(post, nameSlot: slot)
        }
        if nameRows[slot].recentPosters.last != post.callsite { notePoster(post.callsite, nameSlot: slot) }
        if nameRows[slot].posts == 1 { neverPostedFirstPost(slot) }
        if onMain ? !nameRows[slot].postedOnMain : !nameRows[slot].postedOffMain {
            mixedThreadPosted(post.name, callsite: post.callsite, nameSlot: slot, onMain: onMain)
        }
    }

    /// R10 on another center: the centers a name reached. A center the header does not list
    /// makes them unknown: the post reached some center, and no rule may say which not.
    private mutating func notePostedCenter(_ center: UInt32, nameSlot slot: Int) {
        guard Int(center) < header?.centers?.count ?? 0 else {
            nameRows[slot].postedCenters.markUnknown()
            return
        }
        if nameRows[slot].postedCenters.insert(center) { otherCenterFirstPost(slot, center) }
    }

    private mutating func notePoster(_ callsite: UInt64, nameSlot: Int) {
        nameRows[nameSlot].recentPosters.removeAll { $0 == callsite }
        nameRows[nameSlot].recentPosters.append(callsite)
        if nameRows[nameSlot].recentPosters.count > 8 { nameRows[nameSlot].recentPosters.removeFirst() }
    }

    mutating func applyDelivery(_ delivery: TraceDelivery) {
        let time = delivery.timestamp
        observe(time)
        totals.deliveries &+= 1
        deliveryRate.record(at: time)
        slowestHandlerWindow.recordMaximum(delivery.duration, at: time)
        let threadSlot = threadSlot(for: delivery.thread)
        let postIndex = history.delivered(delivery)

        var observerType: String?
        var registrationKind: TraceRegistrationKind?
        var nameSlot = -1
        let rowSlot = registrationSlots[delivery.registration]
        if let rowSlot {
            rows[rowSlot].deliveries &+= 1
            rows[rowSlot].lastDeliveryAt = time
            rows[rowSlot].lastDeliveringThread = delivery.thread
            observerType = rows[rowSlot].observer?.typeName
            registrationKind = rows[rowSlot].kind
            // An async observer's run or a sequence consumer's read took one message out of its
            // mailbox or buffer.
            let queues = rows[rowSlot].kind == .asyncMessage || rows[rowSlot].kind == .messageSequence
            if queues, rows[rowSlot].pendingMessages > 0 {
                rows[rowSlot].pendingMessages -= 1
            }
            let own = rows[rowSlot].nameSlot
            if own == 0 {
                nameRows[0].deliveries &+= 1
                nameRows[0].handlerTime.record(delivery.duration)
                nameRows[0].handlingThreads.insert(delivery.thread)
            } else if rows[rowSlot].isLive || (nameRows[own].occupied && nameRows[own].name == delivery.name) {
                nameSlot = own
            }
        } else {
            loss.unknownRegistrationEvents &+= 1
        }
        if nameSlot < 0 {
            let postSlot = postIndex.map { Int(history[kept: $0].nameSlot) } ?? -1
            if postSlot >= 0, nameRows[postSlot].occupied, nameRows[postSlot].name == delivery.name {
                nameSlot = postSlot
            } else {
                nameSlot = self.nameSlot(for: delivery.name)
            }
        }
        nameRows[nameSlot].deliveries &+= 1
        nameRows[nameSlot].handlerTime.record(delivery.duration)
        nameRows[nameSlot].handlingThreads.insert(delivery.thread)

        threadRows[threadSlot].deliveries &+= 1
        threadRows[threadSlot].timeInHandlers &+= delivery.duration
        threadRows[threadSlot].lastActive = time
        markActive(threadSlot)
        if delivery.target == .task { threadRows[threadSlot].mailboxWait.record(delivery.wait) }
        threadRows[threadSlot].log.append(
            DeliveryLogEntry(
                start: delivery.start, name: delivery.name, postID: delivery.postID,
                registration: delivery.registration,
                observerType: observerType, registrationKind: registrationKind, postingThread: delivery.postingThread,
                deliveringThread: delivery.thread,
                wait: delivery.wait, duration: delivery.duration, depth: delivery.depth))

        if let rowSlot {
            let flags = rows[rowSlot].flags
            let mainThreadOnly = rows[rowSlot].mainThreadOnly
            if flags.contains(.orphaned) || flags.contains(.duplicated) || mainThreadOnly {
                if flags.contains(.orphaned) { orphanDelivered(rowSlot) }
                if flags.contains(.duplicated) { duplicateDelivered(rowSlot, postID: delivery.postID) }
                if mainThreadOnly && !threadRows[threadSlot].isMain {
                    mismatchDelivered(rowSlot, delivery: delivery, postIndex: postIndex)
                }
            }
        }
        if delivery.duration >= slowHandlerFloor || (delivery.target == .task && delivery.wait >= slowHandlerFloor)
            || (slowPostFloor != .max && (delivery.target == .posting || delivery.target == .operationQueue))
        {
            slowDelivered(delivery, rowSlot: rowSlot, postIndex: postIndex)
        }
    }
}
