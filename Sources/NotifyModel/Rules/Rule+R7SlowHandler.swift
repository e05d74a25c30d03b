import NotifyWire

/// R7 SLOW_HANDLER: a handler blocks its poster.
///
/// Handler: one run's duration graded by ``LeakRuleConfiguration/slowHandler`` (16 / 100 /
/// 250 ms). Key: the registering callsite. Post total: the handlers one post waited for
/// (posting and operation-queue targets; a queue does not make `post` asynchronous, E1f) summed
/// and graded by ``LeakRuleConfiguration/slowPost``, reported only when the sum grades worse than
/// any single handler of that post. Key: name and posting callsite. Evidence: worst duration,
/// p50/p95 of the slow runs, poster callsite and thread, observers in the post. Stays open: it
/// describes runs that happened; later slow runs update it.
///
/// Typed messages: a main-actor message's observers run inside `post` (target posting), so both
/// gradings apply as to any inline handler. An async message's observer (target task) never
/// blocks the poster: a slow one delays only its own mailbox, its later messages waiting behind
/// it. So for target task the graded figure is the delivery's `wait` (enqueue to start: how late
/// the message ran), not the handler's duration, keyed by the registering callsite like a
/// handler; it is never part of a post total.
extension InspectorState {
    mutating func slowDelivered(_ delivery: TraceDelivery, rowSlot: Int?, postIndex: Int?) {
        let rules = configuration.rules
        var handlerGrade: LeakSeverity?
        let graded = delivery.target == .task ? delivery.wait : delivery.duration
        if graded >= slowHandlerFloor {
            handlerGrade = rules.slowHandler.severity(of: graded)
            if let handlerGrade, let rowSlot { raiseSlowHandler(rowSlot, delivery, handlerGrade, postIndex) }
        }
        guard let postIndex, slowPostFloor != .max,
            delivery.target == .posting || delivery.target == .operationQueue
        else { return }
        history[kept: postIndex].blocking &+= delivery.duration
        if let handlerGrade {
            history[kept: postIndex].worstHandler = max(
                history[kept: postIndex].worstHandler, Int8(handlerGrade.rawValue))
        }
        let total = history[kept: postIndex].blocking
        guard total >= slowPostFloor, let grade = rules.slowPost.severity(of: total) else { return }
        let level = Int8(grade.rawValue)
        guard level > history[kept: postIndex].reportedTotal, level > history[kept: postIndex].worstHandler else {
            return
        }
        let firstReport = history[kept: postIndex].reportedTotal < 0
        history[kept: postIndex].reportedTotal = level
        let post = history[kept: postIndex]
        let site = definitions.callsite(post.callsite)
        guard allows(.slowHandler, callsite: site, name: delivery.name) else { return }
        findingStore.raise(
            LeakFindingKey(rule: .slowHandler, subject: .nameAtCallsite(delivery.name, callsite: post.callsite)),
            severity: grade,
            summary: "posting \"\(delivery.name)\" at \(site) blocks the poster for \(Self.milliseconds(total)) "
                + "across its handlers",
            at: now, countsOccurrence: firstReport
        ) { finding in
            finding.evidence.name = delivery.name
            finding.evidence.callsite = site
            if firstReport { finding.evidence.count += 1 }
            finding.evidence.duration = max(finding.evidence.duration ?? 0, total)
            finding.evidence.addThread(post.thread)
            finding.evidence.postingThreadIsMain = post.threadIsMain
            finding.evidence.observersInPost = post.matched
            finding.evidence.detail = "post total: the handlers of one post together"
        }
    }

    private mutating func raiseSlowHandler(
        _ rowSlot: Int, _ delivery: TraceDelivery, _ grade: LeakSeverity, _ postIndex: Int?
    ) {
        let row = rows[rowSlot]
        guard allows(.slowHandler, callsite: row.callsite, name: delivery.name) else { return }
        let post = postIndex.map { history[kept: $0] }
        let poster = post.map { definitions.callsite($0.callsite) }
        let mailbox = delivery.target == .task
        let graded = mailbox ? delivery.wait : delivery.duration
        let summary =
            mailbox
            ? "async message observer registered at \(row.callsite) for \"\(row.displayName)\" fell behind: "
                + "a message waited \(Self.milliseconds(delivery.wait)) in its mailbox"
            : "handler registered at \(row.callsite) for \"\(row.displayName)\" ran "
                + "\(Self.milliseconds(delivery.duration)) on the posting path"
        findingStore.raise(
            LeakFindingKey(rule: .slowHandler, subject: .callsite(row.callsite.id)), severity: grade,
            summary: summary,
            at: now
        ) { finding in
            finding.evidence.name = row.displayName
            finding.evidence.callsite = row.callsite
            finding.evidence.observer = row.observer
            finding.evidence.addRegistration(row.id, center: row.center)
            finding.evidence.count += 1
            finding.evidence.duration = max(finding.evidence.duration ?? 0, graded)
            var durations = finding.evidence.durations ?? LatencyHistogram()
            durations.record(graded)
            finding.evidence.durations = durations
            finding.evidence.addRelated(poster)
            finding.evidence.addThread(delivery.postingThread)
            if let post {
                finding.evidence.postingThreadIsMain = post.threadIsMain
                finding.evidence.observersInPost = post.matched
            }
            finding.evidence.detail =
                (mailbox ? "mailbox wait (a slow async observer delays only its own messages): " : "")
                + "p50 \(Self.milliseconds(durations.percentile(0.5))), "
                + "p95 \(Self.milliseconds(durations.percentile(0.95))) over \(durations.count) slow run(s)"
        }
    }

    /// `"120.0 ms"`.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let tenths = nanoseconds / 100_000 + (nanoseconds % 100_000 >= 50_000 ? 1 : 0)
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
