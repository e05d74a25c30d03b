import NotifyDemo
import NotifyKit

/// The NotifyKit facts each warning rule is computed from, found in a recorded run: one detector
/// per planted bug, each reading only what a probe (and so notifytop) receives.
///
/// These are deliberately literal readings of the warning rules R1–R10 over the event stream, not
/// the model: they check that each planted bug produces the evidence its rule needs, and that a clean
/// run produces none of it.
struct DemoFacts {
    /// Bugs whose fact appears in the run, in ``DemoBug/allCases`` order.
    let found: [DemoBug]
    /// One line per occurrence, for failure messages.
    let evidence: [DemoBug: [String]]
    /// Posts that matched no registration at all (R9's info level, without a near name).
    let unheardPosts: [String]

    init(_ run: RecordedDemoRun) {
        var evidence: [DemoBug: [String]] = [:]
        func note(_ bug: DemoBug, _ line: String) { evidence[bug, default: []].append(line) }

        var live: [UInt64: ProbeEvent.Registration] = [:]
        var everRegisteredNames: Set<String> = []
        var postedNames: Set<String> = []
        var unheard: [String] = []
        // R2(b): (owner, name) whose last registration ended while the owner lived → posts since.
        // An owner whose every registration ended is taken to be gone (a closed screen): its gaps close.
        var gaps: [GapKey: Int] = [:]
        // R6: live count per (name, callsite), sampled at each ScreenDidAppear (navigation) post.
        var counts: [GrowthKey: Int] = [:]
        var series: [GrowthKey: [Int]] = [:]

        for event in run.events {
            switch event.kind {
            case .registered(let registration):
                let name = registration.name ?? "*"
                everRegisteredNames.insert(name)
                if registration.capturesObserverStrongly { note(.selfCapture, "#\(registration.id) \(name)") }
                if let observer = registration.observer {
                    let same = live.values.filter { other in
                        other.observer == observer && other.name == registration.name
                            && other.object == registration.object
                    }
                    if same.contains(where: { $0.callsite == registration.callsite }) {
                        note(.doubleRegister, "#\(registration.id) \(name) \(observer.typeName)")
                    } else if let first = same.first {
                        note(
                            .splitRegister,
                            "#\(registration.id) \(name) \(observer.typeName) at \(first.callsite) and \(registration.callsite)"
                        )
                    }
                    let key = GapKey(observer: observer, name: name)
                    if let missed = gaps.removeValue(forKey: key), missed > 0 {
                        note(.earlyRemove, "\(observer.typeName) re-registered \(name) after missing \(missed)")
                    }
                }
                live[registration.id] = registration
                counts[GrowthKey(registration), default: 0] += 1
            case .removed(let id, let reason, _):
                guard let registration = live.removeValue(forKey: id) else { continue }
                counts[GrowthKey(registration), default: 0] -= 1
                switch reason {
                case .observerDeallocated: note(.deallocWithoutRemove, "#\(id) \(registration.name ?? "*")")
                case .objectDeallocated: note(.deadSender, "#\(id) \(registration.name ?? "*")")
                case .explicit, .tokenCancelled:
                    // Addresses are reused, so "the owner is still alive" is read from its other
                    // registrations: an owner that ended only some of them has not gone away.
                    if let observer = registration.observer,
                        !live.values.contains(where: { $0.observer == observer && $0.name == registration.name }),
                        live.values.contains(where: { $0.observer == observer })
                    {
                        gaps[GapKey(observer: observer, name: registration.name ?? "*")] = 0
                    }
                case .sequenceEnded, .centerDeallocated: break
                }
                if let observer = registration.observer, !live.values.contains(where: { $0.observer == observer }) {
                    // Its last registration ended: the owner closed (or died); a later owner at the same
                    // address is a new object, not a returning one.
                    for key in Array(gaps.keys) where key.observer == observer { gaps[key] = nil }
                }
            case .tokenDropped(let id):
                note(.droppedToken, "#\(id) \(live[id]?.name ?? "?")")
            case .posted(let post):
                postedNames.insert(post.name)
                for key in Array(gaps.keys) where key.name == post.name { gaps[key]! += 1 }
                if post.matched == 0 {
                    unheard.append(post.name)
                    if let near = everRegisteredNames.first(where: { (1...2).contains(editDistance($0, post.name)) }) {
                        note(.typoPost, "\(post.name) ~ \(near)")
                    }
                }
                if post.name == DemoName.screenDidAppear.string {
                    for (key, count) in counts { series[key, default: []].append(count) }
                }
            case .delivered(let delivery):
                if delivery.duration >= 100_000_000 {
                    note(.slowMainHandler, "\(delivery.name) \(delivery.duration / 1_000_000) ms")
                }
                if live[delivery.registration]?.mainThreadOnly == true, !run.isMain(event.thread) {
                    note(.backgroundToMain, "\(delivery.name) #\(delivery.registration) on thread \(event.thread)")
                }
            case .removeMissed, .queue, .checkpoint, .messageEnqueued, .objectDead, .queueMerged:
                break
            }
        }
        for registration in live.values where !postedNames.contains(registration.name ?? "*") {
            if registration.name != nil { note(.neverPosted, "#\(registration.id) \(registration.name!)") }
        }
        for (key, values) in series {
            // Checkpoints where nothing changed say nothing: compare the distinct levels.
            var levels: [Int] = []
            for value in values where levels.last != value { levels.append(value) }
            let last = levels.suffix(4)
            if last.count == 4, zip(last, last.dropFirst()).allSatisfy({ $0 < $1 }), last.last! >= 4 {
                let levels = last.map(String.init).joined(separator: " → ")
                note(.reappearLeak, "\(key.name) at \(key.callsite): \(levels)")
            }
        }
        self.evidence = evidence
        found = DemoBug.allCases.filter { evidence[$0] != nil }
        unheardPosts = unheard
    }

    private struct GapKey: Hashable {
        let observer: ProbeEvent.ObjectRef
        let name: String
    }

    private struct GrowthKey: Hashable {
        let name: String
        let callsite: ProbeEvent.Callsite

        init(_ registration: ProbeEvent.Registration) {
            name = registration.name ?? "*"
            callsite = registration.callsite
        }
    }
}

/// Levenshtein distance, for R9's "near a registered name".
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(1, b.count) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
}
