import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

/// Types and sites as `--foundation` reads them from a program's symbols: mangled Swift names
/// are shown demangled, Foundation's own frames by the type they belong to.
@Suite("Swift symbol names on display")
struct SwiftSymbolNameTests {
    @Test("a mangled type (type metadata) reads as the type; a plain one is left as it is")
    func typeNames() {
        var script = TraceScript()
        script.register(1, "documentDidSave", kind: .target, observer: 7, ownerType: "$s6ocdemo8DocumentCN")
        script.register(2, "documentDidSave", kind: .target, observer: 8, ownerType: "App.Screen")
        script.register(3, "documentDidSave", kind: .target, observer: 9, ownerType: "$sBogus\u{202E}")
        let state = script.fold()
        #expect(state.registration(1)?.observer?.typeName == "ocdemo.Document")
        #expect(state.registration(2)?.observer?.typeName == "App.Screen")
        #expect(state.registration(3)?.observer?.typeName == "$sBogus\u{202E}", "not demangled: left as it came")
    }

    @Test("a site named by a Foundation function's symbol reads Foundation (Type); a file and line stay")
    func foundationSites() {
        var script = TraceScript()
        script.site(300, file: "$s10Foundation17NotificationQueueC7defaultACvgZ", line: 0)
        script.site(301, file: "$s10Foundation17NotificationQueueC7defaultACvgZ", line: 12)
        script.site(302, file: "$s6ocdemo8DocumentCN", line: 0)
        script.register(1, "queued", site: 300)
        script.register(2, "queued", site: 301)
        script.register(3, "queued", site: 302)
        let state = script.fold()
        #expect(state.registration(1)?.callsite.description == "Foundation (NotificationQueue)")
        #expect(state.registration(2)?.callsite.description == "$s10Foundation17NotificationQueueC7defaultACvgZ:12")
        #expect(state.registration(3)?.callsite.description == "type metadata for ocdemo.Document")
    }

    @Test(
        "an app's function that takes Foundation's types, or extends one, is the app's; Foundation's closures are Foundation's"
    )
    func definingModuleDecides() {
        var script = TraceScript()
        // (extension in nc):FoundationEssentials.NotificationCenter.countedPost(name: Foundation.NSNotification.Name) -> ()
        script.site(
            300,
            file: "$s20FoundationEssentials18NotificationCenterC2ncE11countedPost4namey0A014NSNotificationC4NameV_tF",
            line: 0)
        // nc.Harness.run(center: FoundationEssentials.NotificationCenter) -> ()
        script.site(301, file: "$s2nc7HarnessV3run6centery20FoundationEssentials18NotificationCenterC_tF", line: 0)
        // closure #1 (Foundation.Notification) -> () in nc.Harness.run(center: FoundationEssentials.NotificationCenter) -> ()
        script.site(
            302, file: "$s2nc7HarnessV3run6centery20FoundationEssentials18NotificationCenterC_tFy0E00G0VcfU_", line: 0)
        // partial apply forwarder for closure #1 (…) -> () in closure #1 () -> … in Foundation.NotificationQueue.asapRunloopObserver.getter
        script.site(
            303,
            file:
                "$s10Foundation17NotificationQueueC19asapRunloopObserverSo09CFRunLoopF3RefavgAFyXEfU_yAFSg_So0gH8ActivityVtcfU_TA",
            line: 0)
        for (id, site) in [(1, 300), (2, 301), (3, 302), (4, 303)] {
            script.register(UInt64(id), "n", site: UInt64(site))
        }
        let state = script.fold()
        let sites = (1...4).map { state.registration(UInt64($0))?.callsite.description ?? "" }
        #expect(sites[0].hasPrefix("(extension in nc):"))
        #expect(sites[1].hasPrefix("nc.Harness.run("))
        #expect(sites[2].hasPrefix("closure #1"))
        #expect(sites[3] == "Foundation (NotificationQueue)")
    }

    @Test("a mangled name past the bound is not demangled")
    func bounded() {
        var script = TraceScript()
        let long = "$s6ocdemo" + String(repeating: "8Document", count: 200) + "CN"
        script.register(1, "a", kind: .target, observer: 7, ownerType: long)
        #expect(script.fold().registration(1)?.observer?.typeName == long)
    }
}
