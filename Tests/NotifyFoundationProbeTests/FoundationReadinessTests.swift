@testable import NotifyFoundationProbe
import Testing

/// What the overview says of a process before attaching: symbols present, stripped, or another
/// Foundation, from the file's symbol table.
@Suite
struct FoundationReadinessTests {
    @Test("every symbol present: attachable")
    func allSymbols() {
        let readiness = FoundationReadiness.readiness(
            hasSymbolTable: true, found: Set(FoundationSymbols.required), statically: false)
        #expect(readiness == .symbolsPresent(statically: false))
        #expect(readiness.canAttach)
        #expect(readiness.description == "symbols present")
    }

    @Test("no symbol table and a symbol missing: stripped, static or not")
    func stripped() {
        let dynamicOnly = Set([FoundationSymbols.post])
        #expect(
            FoundationReadiness.readiness(hasSymbolTable: false, found: dynamicOnly, statically: false)
                == .stripped(statically: false))
        let readiness = FoundationReadiness.readiness(hasSymbolTable: false, found: [], statically: true)
        #expect(readiness == .stripped(statically: true))
        #expect(!readiness.canAttach)
        #expect(readiness.description == "static, stripped: cannot attach")
    }

    @Test("a symbol table without the delivery closure: another Foundation, named")
    func differs() {
        let readiness = FoundationReadiness.readiness(
            hasSymbolTable: true, found: Set(FoundationSymbols.required.dropLast()), statically: false)
        #expect(readiness == .differs(missing: ["the closure that calls an observer"]))
        #expect(!readiness.canAttach)
    }
}
