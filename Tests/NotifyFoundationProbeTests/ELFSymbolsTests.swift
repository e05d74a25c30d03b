import NotifyFoundationProbe
import Testing

/// Symbol tables are read from ELF files; what is not ELF is refused.
@Suite struct ELFSymbolsTests {
    @Test func aLibrarysDefinedSymbolsAreFoundAndItsReferencesAreNot() throws {
        let bytes = try #require(SystemFiles.bytes("/proc/self/exe", followsLinks: true))
        let symbols = try #require(ELFSymbols(bytes: bytes, looking: ["main", "swift_retain", "no such symbol"]))
        // The test runner defines main and only calls swift_retain (libswiftCore's; a sanitizer's
        // runtime linked in would define malloc, so that is no reference-only symbol).
        #expect(symbols.found == ["main"])
    }

    @Test func somethingElseIsNotAnELFFile() {
        #expect(
            ELFSymbols(
                bytes: Array("#!/bin/sh\necho hello\n".utf8) + [UInt8](repeating: 0, count: 64), looking: ["main"])
                == nil)
    }
}
