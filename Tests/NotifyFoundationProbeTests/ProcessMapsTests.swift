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

    /// The kernel writes a newline in a path as `\012`: the path is the one it means, and the
    /// file is reached through its mapping, whose path holds only the mapping's numbers.
    @Test func aNewlineInAPathIsTheKernelsNewlineAndTheFileIsReachedThroughItsMapping() throws {
        let maps = ProcessMaps(
            #"7fb7b2000000-7fb7b2100000 r-xp 00000000 08:01 14 /tmp/a\012b c/libFoundationEssentials.so"# + "\n")
        let mapping = try #require(maps.mapping(named: "libFoundationEssentials.so"))
        #expect(mapping.path == "/tmp/a\nb c/libFoundationEssentials.so")
        #expect(mapping.inode == 14)
        #expect(mapping.mapFilesPath(pid: 77) == "/proc/77/map_files/7fb7b2000000-7fb7b2100000")
        #expect(
            maps.locate(0x7fb7_b200_0010)?.base.mapFilesPath(pid: 77) == "/proc/77/map_files/7fb7b2000000-7fb7b2100000")
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
        #expect(
            missing == ["NotificationCenter._post", "NotificationCenter._removeObserver", "NotificationCenter.deinit"])
    }
}
