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

    @Test("a mangled name past the bound is not demangled")
    func bounded() {
        var script = TraceScript()
        let long = "$s6ocdemo" + String(repeating: "8Document", count: 200) + "CN"
        script.register(1, "a", kind: .target, observer: 7, ownerType: long)
        #expect(script.fold().registration(1)?.observer?.typeName == long)
    }
}
