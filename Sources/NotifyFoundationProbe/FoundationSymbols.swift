/// The functions of Foundation's `NotificationCenter` the probes attach to, by their mangled names
/// in `libFoundationEssentials.so` (Swift 6.3's Foundation). Every notification observer's add,
/// and every post and removal of notifications and typed messages alike, goes through the first
/// three (a typed message observer's add has `_addObserver` inlined); the fourth is the closure
/// that calls one observer, so its entry and return time one delivery.
package enum FoundationSymbols {
    /// `NotificationCenter._addObserver(_:object:using:)`: name in rdi:rsi, object filter (`Any?`,
    /// indirect) at rdx, the observer's closure in rcx:r8, the center in r13; returns the token's
    /// number (rax), name (rdx:rcx) and object filter's identifier (r8, 0 for none): the number is
    /// unique among the center's registrations of one name and filter.
    package static let addObserver =
        "$s20FoundationEssentials18NotificationCenterC12_addObserver_6object5usingAC01_cF5TokenVSSSg_ypSgyxYbctlF"
    /// `NotificationCenter._post(_:subject:message:)`: name in rdi:rsi, subject (`Any?`, indirect)
    /// at rdx, the center in r13.
    package static let post = "$s20FoundationEssentials18NotificationCenterC5_post_7subject7messageySSSg_ypSgxtlF"
    /// `NotificationCenter._removeObserver(_:)`: the token (number in rdi, name in rsi:rdx, object
    /// filter's identifier in rcx).
    package static let removeObserver =
        "$s20FoundationEssentials18NotificationCenterC15_removeObserveryyAC01_cF5TokenVF"
    /// `closure #1 in closure #2 in _addObserver`: runs one observer; its context (r13) holds the
    /// observer's closure at +24 (function) and +32 (context).
    package static let delivery =
        "$s20FoundationEssentials18NotificationCenterC12_addObserver_6object5usingAC01_cF5TokenVSSSg_ypSgyxYbctlF"
        + "s6UInt64VSDyAISDySOSgAA14AutoDictionary33_D7F0FBD11A4908D9351EC62B4910EBB5LLVyyAA10MessageBoxAOLLVYbcGGGzYuYT"
        + "XEfU0_yARYbcfU_"

    /// `NotificationCenter`'s deallocating deinit: the center in r13 (checked with bpftrace against
    /// `_addObserver`'s r13 on centers an app drops). Its registrations end with it.
    package static let centerDeinit = "$s20FoundationEssentials18NotificationCenterCfD"

    /// `NotificationCenter.addObserver(forName:object:queue:using:)` in `libFoundation.so`: the
    /// queue (`OperationQueue?`) in rcx, the observer's block in r8:r9. With a queue it passes
    /// `_addObserver` a closure of its own that runs the block as an operation on that queue.
    package static let queueAddObserver =
        "$s20FoundationEssentials18NotificationCenterC0A0E11addObserver7forName6object5queue5usingAD16NSObjectProtocol_"
        + "pAD14NSNotificationC0H0VSg_ypSgAD14OperationQueueCSgyAD0C0VYbctF"
    /// The operation that runs a queue observer's block on the queue's thread (`{ block(notification) }`,
    /// its partial application): its context (r13) holds the block at +16 (function) and +24 (context).
    package static let queueOperation = queueAddObserver + "yAUYbcfU_yyYbcfU_TA"

    /// The symbols that show queue observers; without them queue targets are not visible.
    package static let queueSymbols = [queueAddObserver, queueOperation]

    /// The library that holds ``queueSymbols`` (swift-corelibs-foundation's `Foundation`).
    package static let queueLibraryName = "libFoundation.so"

    /// Every symbol the probes need, checked in the target's own mapping before attaching.
    package static let required = [addObserver, post, removeObserver, centerDeinit, delivery]

    /// The library that holds them, as it appears in `/proc/PID/maps`.
    package static let libraryName = "libFoundationEssentials.so"
}
