import NotifyWire

/// R8 THREAD_MISMATCH: a delivery on the wrong thread.
///
/// Declared: the registration declared `mainThreadOnly` and its handler ran on a thread that is
/// not the process's main thread. Key: the registering callsite. Error, counting violations.
/// Mixed-thread name (only for names no registration declared a requirement for): the name was
/// posted from both the main thread and another thread. Key: the name. Info. Both stay open:
/// they describe runs that happened.
///
/// Typed messages cannot mismatch, by construction: a main-actor message's `post` is
/// main-actor-isolated and delivers inline, so its observers never run off the main actor (which
/// runs on a worker thread once the main thread parks in `dispatchMain()`); an async message makes
/// no thread promise (its observers run on the cooperative pool). Neither is a mixed-thread name.
extension InspectorState {
    mutating func mismatchDelivered(_ rowSlot: Int, delivery: TraceDelivery, postIndex: Int?) {
        let row = rows[rowSlot]
        guard allows(.threadMismatch, callsite: row.callsite, name: row.displayName) else { return }
        let post = postIndex.map { history[kept: $0] }
        let poster = post.map { definitions.callsite($0.callsite) }
        let threadName = thread(delivery.thread)?.name ?? "thread-\(delivery.thread)"
        findingStore.raise(
            LeakFindingKey(rule: .threadMismatch, subject: .callsite(row.callsite.id)), severity: .error,
            summary: "handler registered main-thread-only at \(row.callsite) for \"\(row.displayName)\" ran on "
                + "\"\(threadName)\"",
            at: now
        ) { finding in
            finding.evidence.name = row.displayName
            finding.evidence.callsite = row.callsite
            finding.evidence.observer = row.observer
            finding.evidence.addRegistration(row.id, center: row.center)
            finding.evidence.count += 1
            finding.evidence.addThread(delivery.postingThread)
            finding.evidence.addThread(delivery.thread)
            finding.evidence.addRelated(poster)
            finding.evidence.postingThreadIsMain = post?.threadIsMain
            finding.evidence.detail =
                "declared main-thread only; ran on thread \(delivery.thread) "
                + "(\(threadName)), posted from thread \(delivery.postingThread)"
        }
    }

    /// A post of `name` on the main thread or off it.
    mutating func mixedThreadPosted(_ name: String, callsite: UInt64?, nameSlot: Int, onMain: Bool) {
        if onMain {
            nameRows[nameSlot].postedOnMain = true
        } else {
            nameRows[nameSlot].postedOffMain = true
        }
        mixedThreadJudge(name, callsite: callsite, nameSlot: nameSlot)
    }

    /// History's posts of `name` on the main thread or off it. A snapshot may state them before
    /// the registration that declares a requirement, so the name is judged at the next
    /// checkpoint, when the snapshot is whole.
    mutating func mixedThreadInHistory(nameSlot: Int, onMain: Bool) {
        if onMain {
            nameRows[nameSlot].postedOnMain = true
        } else {
            nameRows[nameSlot].postedOffMain = true
        }
        guard nameRows[nameSlot].postedOnMain, nameRows[nameSlot].postedOffMain else { return }
        ruleState.mixedInHistory.insert(nameSlot)
        ruleState.pastPending = true
    }

    /// Judges the names history showed posted both on and off the main thread.
    mutating func mixedThreadCatchUp() {
        for slot in ruleState.mixedInHistory.sorted() where nameRows[slot].occupied {
            mixedThreadJudge(nameRows[slot].name, callsite: nil, nameSlot: slot)
        }
        ruleState.mixedInHistory = []
    }

    private mutating func mixedThreadJudge(_ name: String, callsite: UInt64?, nameSlot: Int) {
        let row = nameRows[nameSlot]
        // A typed message's thread is not the question: see the type's description.
        guard row.postedOnMain, row.postedOffMain, !row.declaresMainOnly, !row.isMessage else { return }
        let site = callsite.map { definitions.callsite($0) }
        guard allows(.threadMismatch, callsite: site, name: name) else { return }
        let threads = row.postingThreads.ids
        findingStore.raise(
            LeakFindingKey(rule: .threadMismatch, subject: .name(name)), severity: .info,
            summary: "\"\(name)\" is posted from both the main thread and other threads", at: now
        ) { finding in
            finding.evidence.name = name
            if let site { finding.evidence.callsite = site }
            for thread in threads { finding.evidence.addThread(thread) }
            finding.evidence.count += 1
            finding.evidence.detail = "mixed-thread name: handlers run on whichever thread posts"
        }
    }
}
