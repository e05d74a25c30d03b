import NotifyFoundationProbe
import Testing

/// /proc/PID/maps: Foundation's library is found, and an address is placed in its file relative
/// to where the file was loaded.
@Suite struct ProcessMapsTests {
    let maps = ProcessMaps(
        """
        55a67c9f4000-55a67c9f7000 r--p 00000000 08:01 12                         /tmp/app
        55a67c9f7000-55a67c9f9000 r-xp 00003000 08:01 12 /tmp/app
        7fb7b1000000-7fb7b1400000 r-xp 00000000 08:01 13 /opt/swift/usr/lib/swift/linux/libFoundation.so
        7fb7b2000000-7fb7b2100000 r--p 00000000 08:01 14 /opt/swift/usr/lib/swift/linux/libFoundationEssentials.so
        7fb7b2100000-7fb7b2500000 r-xp 00100000 08:01 14 /opt/swift/usr/lib/swift/linux/libFoundationEssentials.so
        7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]
        """)

    @Test func foundationsLibraryAndTheExecutableAreFound() {
        #expect(
            maps.path(named: "libFoundationEssentials.so")
                == "/opt/swift/usr/lib/swift/linux/libFoundationEssentials.so")
        #expect(maps.executable == "/tmp/app")
        #expect(maps.mappings.count == 5)
    }

    @Test func anAddressIsPlacedRelativeToItsFilesLoadAddress() {
        #expect(maps.locate(0x55a6_7c9f_8007)?.path == "/tmp/app")
        #expect(maps.locate(0x55a6_7c9f_8007)?.address == 0x4007)
        #expect(maps.locate(0x7fb7_b210_0010)?.address == 0x10_0010)
        #expect(maps.locate(0x1000) == nil)
        #expect(maps.isFoundation(0x7fb7_b100_0010))
        #expect(!maps.isFoundation(0x55a6_7c9f_8007))
    }

    @Test func aSymbolizedLocationBecomesAFileAndLine() {
        #expect(
            Symbolizer.site(function: "main", location: "/tmp/spike/app.swift:18:20")
                == ProbeSite(file: "app.swift", line: 18))
        #expect(
            Symbolizer.site(function: "main", location: "/tmp/spike/app.swift:0:0") == ProbeSite(file: "main", line: 0))
        #expect(Symbolizer.site(function: "??", location: "??:0:0") == .unknown)
    }

    @Test func missingFunctionsAreNamed() {
        #expect(FoundationPreflight.missing(found: Set(FoundationSymbols.required)).isEmpty)
        let missing = FoundationPreflight.missing(found: [FoundationSymbols.addObserver, FoundationSymbols.delivery])
        #expect(missing == ["NotificationCenter._post", "NotificationCenter._removeObserver"])
    }
}
