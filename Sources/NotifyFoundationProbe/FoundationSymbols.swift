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

    /// `_addMainActorObserver(subject:observer:)` (fileprivate, `_addObserver` inlined): the subject
    /// (`Subject?`, indirect) at rdi, the observer's closure in rsi:rdx (the very closure the
    /// delivery closure calls), the message type's metadata in rcx, the center in r13. Returns the
    /// `ObservationToken`, one reference (rax) to a box whose token holds the number at +16, the
    /// name at +24 and +32 and the object filter's identifier at +40.
    package static let addMainActorObserver =
        "$s20FoundationEssentials18NotificationCenterC21_addMainActorObserver33_2054816EC234D43617E96B898141AD54LL"
        + "7subject8observerAC16ObservationTokenV7SubjectQzSg_yxScMYcctAC0fG7MessageRzlF"
    /// `_addAsyncObserver(_:subject:observer:)`: the message type's metadata in rdi, the subject
    /// (indirect) at rsi, the observer's async closure in rdx:rcx, the center in r13; returns as
    /// ``addMainActorObserver``. The delivery closure calls an enqueue whose context holds the
    /// observer's closure at +40 and +48.
    package static let addAsyncObserver =
        "$s20FoundationEssentials18NotificationCenterC17_addAsyncObserver33_716CC8BB01D50141D4EC6CBF270B1A8DLL_"
        + "7subject8observerAC16ObservationTokenVxm_7SubjectQzSgyxYaYbctAC0F7MessageRzlF"
    /// The task an `AsyncMessage` observer runs in (`partial apply for closure #1 in closure #1 in
    /// _addAsyncObserver`): its context (r13) holds the observer's closure at +32 and +40, its
    /// async frame is r14.
    package static let asyncRun = addAsyncObserver + "yxYbcfU_yyYaYbcfU_TA"
    /// Where that task resumes once the observer returned (`closure #1 in closure #1`'s resumption):
    /// the frame its start had is two links up r14's chain.
    package static let asyncRunResume = addAsyncObserver + "yxYbcfU_yyYaYbcfU_TQ0_"

    /// The iterator of an `AsyncMessage` sequence (`messages(of:for:bufferSize:)`), a fileprivate
    /// generic class: its `init(center:object:bufferSize:)` gets the center in rdi, the subject
    /// (`AnyObject?`) in rsi, the buffer size in rdx and the iterator in r13, whose class metadata
    /// holds the message type's metadata at +56. It adds the iterator's observer (`_addObserver`
    /// specialized, not the probed entry) and returns the iterator (rax); the iterator's state (a
    /// buffer at +16) holds the `ObservationToken` at +16, laid out as ``addMainActorObserver``'s.
    package static let sequenceIteratorInit =
        "$s20FoundationEssentials18NotificationCenterC28AsyncMessageSequenceIterator33_EC30AC68DC066B7AFA19EA0258281FADLL"
        + "C6center6object10bufferSizeAFy_xGAC_yXlSgSitcfc"
    /// `observationCallback(_:)`: the iterator's observer puts a posted message in its buffer, the
    /// iterator in r13. It runs inside the delivery closure, so it names the delivery's sequence.
    package static let sequenceCallback =
        "$s20FoundationEssentials18NotificationCenterC28AsyncMessageSequenceIterator33_EC30AC68DC066B7AFA19EA0258281FADLL"
        + "C19observationCallbackyyxF"

    /// The symbols that show typed message observers and sequences; without them such an observer
    /// is seen only at its first run, found live.
    package static let typedSymbols = [
        addMainActorObserver, addAsyncObserver, asyncRun, asyncRunResume, sequenceIteratorInit, sequenceCallback,
    ]

    /// The storage of `OperationQueue.main` (`static let mainQ` of a struct in its getter): the main
    /// queue's address once the app has asked for it, else 0.
    package static let mainQueueStorage = "$s10Foundation14OperationQueueC4mainACvgZ4OnceL_V0D1QACvpZ"

    /// The symbols that show queue observers; without them queue targets are not visible.
    package static let queueSymbols = [queueAddObserver, queueOperation]

    /// The library that holds ``queueSymbols`` (swift-corelibs-foundation's `Foundation`).
    package static let queueLibraryName = "libFoundation.so"

    /// Every symbol the probes need, checked in the target's own mapping before attaching.
    package static let required = [addObserver, post, removeObserver, centerDeinit, delivery]

    /// The library that holds them, as it appears in `/proc/PID/maps`.
    package static let libraryName = "libFoundationEssentials.so"
}
