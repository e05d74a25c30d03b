/// Indexes the leak rules keep beside the tables, each bounded by live registrations or a cap.
///
/// Why separate from the rows: several rules look registrations up by something other than id
/// (an owner, a duplicate key, a (name, callsite) pair); keeping those maps here keeps the fold's
/// own tables simple.
struct RuleState: Sendable {
    /// R4: live self-capturing registrations per owner object (k).
    var selfRetaining: [UInt64: Int] = [:]
    /// R5: live registrations per duplicate key.
    var duplicates: [DuplicateKey: DuplicateGroup] = [:]
    /// R6: live registrations per (name, callsite), with the checkpoint series.
    var tallies: [SiteKey: SiteTally] = [:]
    /// R6: pairs whose count changed since the last checkpoint, and pairs found growing at it:
    /// the only ones the next checkpoint judges.
    var changedTallies: Set<SiteKey> = []
    var growingTallies: Set<SiteKey> = []
    /// R2(b): live registrations per (owner, name).
    var ownerNames: [OwnerName: Int] = [:]
    /// R2(b): owners that removed their last registration for a name, by owner then name.
    var removalGaps: [UInt64: [NameOnCenter: RemovalGap]] = [:]
    var removalGapCount = 0
    /// R2(b) in a stream of several centers: posts of a name on one center, counted only while a
    /// gap waits on that name and center (a name's own count covers every center).
    var centerPosts: [NameOnCenter: CenterPosts] = [:]
    /// R10 on another center: each (name, registering callsite) waiting on a center its name was
    /// never posted to, while posted to another.
    var otherCenterWaits: [LeakFindingKey: OtherCenterWait] = [:]
    /// R9: names posted unheard (or with an open finding), by name slot.
    var unheard: [Int: UnheardTrack] = [:]
    /// R9: bumped when a name registers for the first time, so a name already found near none
    /// is not compared again until then.
    var registeredNames: UInt64 = 0
    /// R9: the names posted unheard and never registered (the typo candidates), and the names
    /// registered, filed for near-name lookups (``NearNameIndex``).
    var unheardNames = NearNameIndex(maximumDistance: LeakRuleConfiguration().nearNameDistance)
    var registeredNameIndex = NearNameIndex(maximumDistance: LeakRuleConfiguration().nearNameDistance)
    /// R10: the names posted, filed for near-name lookups.
    var postedNameIndex = NearNameIndex(maximumDistance: LeakRuleConfiguration().nearNameDistance)
    /// R10: the names that may have observers and no post (each checked at the checkpoint).
    var neverPostedWaiting: Set<Int> = []
    /// Stream time of the next automatic checkpoint.
    var nextCheckpoint: UInt64?
    /// The first automatic checkpoint of this stream: the grid's earlier points passed before it.
    var firstGridCheckpoint: UInt64?
    /// A snapshot told of the time before the stream: the next checkpoint first catches the rules
    /// up with the checkpoints that passed then (R6, R10).
    var pastPending = false
    /// R6: each (name, callsite) pair's recent live counts before the stream, from `site-count`.
    var pastSiteCounts: [SiteKey: [SiteChange]] = [:]
    /// R8: names history showed posted on and off the main thread, judged at the next checkpoint.
    var mixedInHistory: Set<Int> = []
    /// The app's explicit checkpoints before the stream, by time.
    var pastCheckpoints: [UInt64] = []
    /// Checkpoints taken.
    var checkpoints: UInt64 = 0
}

/// R5's identity of "the same registration again": owner, name and object filter; for blocks
/// (no owner) also the callsite, which is 0 when an owner is known. Names are their row slots
/// (stable while a registration is live): integer keys hash several times faster than strings.
struct DuplicateKey: Hashable, Sendable {
    /// Registrations on different centers never run for the same post: never duplicates.
    var center: UInt32
    var owner: UInt64?
    var nameSlot: Int
    var object: UInt64?
    var callsite: UInt64
}

struct DuplicateGroup: Sendable {
    /// The finding the group reports under: its name at its first member's callsite.
    var findingKey: LeakFindingKey
    /// Live members, by registration id: joining and leaving cost the same whatever the size.
    var members: Set<UInt64> = []
    /// The callsites members registered at, first seen first, at most ``siteLimit`` (what a
    /// finding lists); ``siteIDs`` tells a new one from those already seen.
    var sites: [CallsiteInfo] = []
    var siteIDs: Set<UInt64> = []
    static let siteLimit = 16
    /// Reported inside the owner's R4 instead of as an R5 of its own.
    var foldedIntoSelfRetaining = false
    /// The post whose deliveries are being counted, and how many came from this group.
    var currentPost: UInt64 = 0
    var runsInPost = 0
}

/// R6's key: a name (its row slot; 0 for wildcard) registered at a callsite.
struct SiteKey: Hashable, Sendable {
    var nameSlot: Int
    var callsite: UInt64
}

/// A (name, callsite) pair's live count just after one of its changes.
struct SiteChange: Sendable {
    var at: UInt64
    var live: Int
}

struct SiteTally: Sendable {
    var live = 0
    /// Counts at recent checkpoints where the count had changed, oldest first.
    var series: [Int] = []
}

/// R2(b)'s key: an owner and a name (its row slot) on one center.
struct OwnerName: Hashable, Sendable {
    var owner: UInt64
    var nameSlot: Int
    var center: UInt32
}

/// R2(b): an owner stopped observing a name; posts of the name since then are the name's post
/// count now minus ``postsAtRemoval``, so posts never have to visit the gaps.
struct RemovalGap: Sendable {
    var removedAt: UInt64
    var postsAtRemoval: UInt64
    var ownerType: String
    /// ``postsAtRemoval`` is of the name on the gap's center (``RuleState/centerPosts``), not of the
    /// name on every center: the stream carried several centers when the gap opened.
    var countsCenter = false
}

/// R2(b): the posts of a name on one center since a gap on it opened, and how many gaps wait on it.
struct CenterPosts: Sendable {
    var posts: UInt64 = 0
    var gaps = 0
}

/// R2(b): a name on one center (0 in a stream of one center).
struct NameOnCenter: Hashable, Sendable {
    var name: String
    var center: UInt32
}

/// R9's view of one name: the current runs of unheard posts with no observer, and of heard posts
/// while a finding is open. Checked against the slot's name, since name slots are reused.
struct UnheardTrack: Sendable {
    var name: String
    var silentPosts = 0
    var heardPosts = 0
    /// ``RuleState/registeredNames`` when the name was last compared with the registered ones.
    var checkedNames: UInt64 = .max
}

/// R10 on another center: one (name, registering callsite) waiting since a checkpoint.
struct OtherCenterWait: Sendable {
    /// Checkpoints it has been waiting at.
    var checkpoints = 0
    /// Stream time of the first of them.
    var since: UInt64
    /// The waiting registrations, as the last checkpoint found them.
    var registrations: Set<UInt64> = []
}
