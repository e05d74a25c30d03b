import NotifySystem
import Testing

/// The runtime's demangler as notifytop calls it on other processes' symbols: bounded both ways.
@Suite("Swift demangler")
struct SwiftDemanglerTests {
    @Test("a type metadata symbol reads as the runtime writes it")
    func readsATypeMetadataSymbol() throws {
        let demangled = try #require(SwiftDemangler.demangle("$s6ocdemo8DocumentCN", maximumOutputBytes: 256))
        #expect(demangled.readable == "type metadata for ocdemo.Document")
        #expect(!demangled.wasCut)
    }

    @Test("the reading is cut to the bound, and says so")
    func cutsTheOutput() throws {
        let demangled = try #require(SwiftDemangler.demangle("$s6ocdemo8DocumentCN", maximumOutputBytes: 4))
        #expect(demangled.readable == "type")
        #expect(demangled.wasCut)
        let exact = try #require(SwiftDemangler.demangle("$s6ocdemo8DocumentCN", maximumOutputBytes: 33))
        #expect(exact.readable == "type metadata for ocdemo.Document")
        #expect(!exact.wasCut, "exactly the bound is within it")
    }

    @Test("a symbol past the input bound, empty or holding a NUL is not demangled")
    func refusesWhatItShouldNotRead() {
        let long = "$s6ocdemo" + String(repeating: "8Document", count: 200) + "CN"
        #expect(long.utf8.count > SwiftDemangler.maximumInputBytes)
        #expect(SwiftDemangler.demangle(long, maximumOutputBytes: 256) == nil)
        #expect(SwiftDemangler.demangle("", maximumOutputBytes: 256) == nil)
        #expect(SwiftDemangler.demangle("$s6ocdemo8DocumentCN\0tail", maximumOutputBytes: 256) == nil)
    }

    @Test("a symbol taken from a longer buffer reads as that symbol alone")
    func readsOnlyTheSymbol() throws {
        let line = "$s6ocdemo8DocumentCN$s6ocdemo6ScreenCN"
        let symbol = String(line.utf8.prefix(20))!
        let demangled = try #require(SwiftDemangler.demangle(symbol, maximumOutputBytes: 256))
        #expect(demangled.readable == "type metadata for ocdemo.Document")
    }
}
