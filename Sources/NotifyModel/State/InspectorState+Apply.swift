public import NotifyWire

extension InspectorState {
    /// Folds one trace line into the state.
    ///
    /// Pure and total: any line, in any order, leaves a consistent state. Events about unknown
    /// registrations (lost in a gap, retired, or untracked) still count in the name and thread
    /// figures and in ``detailLoss``. Each event's timestamp moves the model's clock, which first
    /// runs the grid work due before it (rate buckets, level samples, retirement, checkpoints);
    /// a stream's clock lines (`TraceEvent.tick`) move it through quiet periods.
    ///
    /// - Complexity: O(1) amortized per event, except when a cap is reached and the table is
    ///   trimmed (O(n) once per trim).
    public mutating func apply(_ event: TraceEvent) {
        if case .tick(let tick) = event {
            // A clock line, not an event: it moves stream time and says how many viewers there are.
            observe(tick.timestamp)
            if let count = tick.viewers { viewers = Int(clamping: count) }
            return
        }
        totals.events &+= 1
        switch event {
        case .delivered(let delivery): applyDelivery(delivery)
        case .posted(let post): applyPost(post)
        case .registered(let registration): applyRegistration(registration)
        case .removed(let removal): applyRemoval(removal)
        case .tokenDropped(let drop): applyTokenDrop(drop)
        case .removeMissed(let missed): applyMissedRemoval(missed)
        case .enqueued(let enqueue): applyEnqueue(enqueue)
        case .thread(let thread): applyThread(thread)
        case .type(let type): definitions.define(type)
        case .callsite(let callsite): definitions.define(callsite)
        case .center(let center): introduceCenter(center)
        case .object(let object):
            let rows = self.rows
            definitions.define(object) { Self.objects(referencedBy: rows) }
        case .queue(let activity):
            observe(activity.timestamp)
            totals.queueActions &+= 1
            // From 1.5 the queue names the post its coalesced enqueues merged into (`merge` lines).
            if activity.action == .coalesced, let name = activity.name, !traceCarriesWhy {
                explainFacts.coalesced(count: activity.count, name: name)
            }
        case .objectDead(let death):
            observe(death.timestamp)
            explainFacts.objectDied(death)
            if let slot = registrationSlots[death.registration], rows[slot].isLive {
                rows[slot].flags.insert(.objectFilterDead)
            }
        case .merged(let merge):
            observe(merge.timestamp)
            explainFacts.merged(merge)
        case .checkpoint(let mark):
            if mark.preexisting {
                rememberPastCheckpoint(at: mark.timestamp)
            } else {
                // The app's own checkpoint ("screen closed") is what the growth rules compare at.
                checkpoint(now: mark.timestamp)
            }
        case .gap(let gap):
            observe(gap.timestamp)
            gaps &+= 1
            eventsLost &+= gap.count
            if gap.reason == .viewerBehind { eventsLostBehind &+= gap.count }
        case .end(let end):
            observe(end.timestamp)
            stream = .ended(end.reason.rawValue)
        case .header(let header):
            self.header = header
            carriesSeveralCenters = Self.listsSeveralCenters(header)
            centerLabels = header.centers ?? [header.center]
            if stream == .waiting { stream = .live }
        case .history(let history): applyHistory(history)
        case .siteCount(let count): rememberSiteCount(count)
        case .tick:
            break
        case .unknown:
            loss.unknownLines &+= 1
        }
    }

    /// Folds lines in order; see ``apply(_:)``.
    public mutating func apply(_ events: some Sequence<TraceEvent>) {
        for event in events { apply(event) }
    }

    @inline(__always)
    mutating func observe(_ time: UInt64) {
        guard time > now else { return }
        if time >= nextClockWork { advanceClock(to: time) }
        now = time
    }

    // MARK: Threads

    mutating func applyThread(_ thread: TraceThread) {
        observe(thread.timestamp)
        let slot = threadSlot(for: thread.id)
        renameThreadRow(slot, to: thread.name)
        threadRows[slot].systemID = thread.systemID
        threadRows[slot].isMain = thread.isMain
        threadRows[slot].lastActive = max(threadRows[slot].lastActive, thread.timestamp)
    }

    /// The row of thread `id`, made (as "thread-<id>") if the definition was lost.
    @inline(__always)
    mutating func threadSlot(for id: UInt64) -> Int {
        if id == lastThreadID { return lastThreadSlot }
        let slot: Int
        if let known = threadSlots[id] {
            slot = known
        } else {
            if threadRows.count >= configuration.maximumThreads { forgetIdleThreads() }
            slot = threadRows.count
            threadRows.append(
                ThreadRow(
                    id: id, name: "thread-\(id)", systemID: 0, isMain: false,
                    logCapacity: configuration.threadLogCapacity))
            threadSlots.insert(id, slot)
            countThreadName(threadRows[slot].name, by: 1)
        }
        lastThreadID = id
        lastThreadSlot = slot
        return slot
    }

    /// Forgets the least recently active quarter of the threads; never the main thread, whose
    /// flag R8 depends on.
    private mutating func forgetIdleThreads() {
        let keep = threadRows.sorted { ($0.isMain ? 1 : 0, $0.lastActive) > ($1.isMain ? 1 : 0, $1.lastActive) }
            .prefix(configuration.maximumThreads * 3 / 4)
        let forgotten = threadRows.count - keep.count
        loss.forgottenThreads &+= UInt64(forgotten)
        loss.overwrittenLogEntries &+=
            threadRows.reduce(0) { $0 + $1.log.overwritten }
            - keep.reduce(0) { $0 + $1.log.overwritten }
        threadRows = Array(keep)
        activeThreads = threadRows.count { $0.isActive }
        threadSlots = IDTable()
        for (slot, row) in threadRows.enumerated() { threadSlots.insert(row.id, slot) }
        recountThreadNames()
        lastThreadID = nil
    }

    /// Marks the thread as one the tables list.
    @inline(__always)
    mutating func markActive(_ slot: Int) {
        guard !threadRows[slot].isActive else { return }
        threadRows[slot].isActive = true
        activeThreads += 1
    }

    // MARK: Names

    /// The row of `name`, made on first use.
    @inline(__always)
    mutating func nameSlot(for name: String) -> Int {
        let entry = NameSlotCache.entry(for: name)
        let hint = nameSlotCache.hint(entry)
        if hint > 0, hint < nameRows.count, nameRows[hint].occupied, nameRows[hint].name == name { return hint }
        let slot = nameSlots[name] ?? addName(name)
        nameSlotCache.remember(slot, at: entry)
        return slot
    }

    private mutating func addName(_ name: String) -> Int {
        if nameSlots.count >= nameTrimAt { forgetIdleNames() }
        let row = NameRow(name: name, isWildcard: false, threadCapacity: configuration.threadsPerName)
        let slot: Int
        if let free = freeNameSlots.popLast() {
            slot = free
            nameRows[slot] = row
        } else {
            slot = nameRows.count
            nameRows.append(row)
        }
        nameSlots[name] = slot
        return slot
    }

    /// Forgets the least recently used of the names that have no live observers and no open
    /// finding: a quarter of the cap, or more to leave three quarters of it.
    private mutating func forgetIdleNames() {
        var pinned = Set<String>()
        for finding in findingStore.byKey.values where finding.isOpen {
            if let name = finding.evidence.name { pinned.insert(name) }
        }
        // The rows, not the name dictionary: reading its string keys cost more than the trim.
        var idle: [(lastUsed: UInt64, slot: Int)] = []
        for slot in nameRows.indices.dropFirst() {
            guard nameRows[slot].occupied, nameRows[slot].liveObservers == 0, !pinned.contains(nameRows[slot].name)
            else { continue }
            idle.append((nameRows[slot].lastUsed, slot))
        }
        // Down to three quarters of the cap in idle names, at least a quarter of the cap at a time.
        let quarter = max(1, configuration.maximumNames / 4)
        let victims = idle.sorted { $0.lastUsed < $1.lastUsed }
            .prefix(max(quarter, idle.count - configuration.maximumNames + quarter))
        for (_, slot) in victims {
            nameSlots[nameRows[slot].name] = nil
            nameRows[slot] = NameRow.vacant
            freeNameSlots.append(slot)
        }
        loss.forgottenNames &+= UInt64(victims.count)
        // Many names with observers (never forgotten) make the next trim wait longer: a trim
        // reads every name, so its cost is spread over as many new ones.
        nameTrimAt = max(configuration.maximumNames, nameSlots.count + max(quarter, nameSlots.count / 4))
    }

    // MARK: Definitions

    /// Objects tracked rows refer to: kept when the object table is trimmed.
    static func objects(referencedBy rows: [ObserverRow]) -> Set<UInt64> {
        var ids = Set<UInt64>()
        for row in rows where row.occupied {
            if let observer = row.observer { ids.insert(observer.id) }
            if let object = row.objectFilter { ids.insert(object.id) }
        }
        return ids
    }
}
