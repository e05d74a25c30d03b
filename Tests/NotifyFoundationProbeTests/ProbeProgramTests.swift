import NotifyFoundationProbe
import Testing

/// The generated bpftrace program probes the four functions in the given file, for one process;
/// the file is named by its mapping in the process, and nothing else reaches the program's text.
@Suite struct ProbeProgramTests {
    let essentials = "/proc/4242/map_files/7fa5ea200000-7fa5ea782000"
    let foundation = "/proc/4242/map_files/7fa5eb000000-7fa5eb400000"

    @Test func everyFunctionIsProbedInTheFileForThePid() throws {
        let text = try ProbeProgram(pid: 4242, library: essentials).text()
        for symbol in FoundationSymbols.required {
            #expect(text.contains("uprobe:\(essentials):\"\(symbol)\" /pid == 4242/"))
        }
        // Returns: the add's token and each post's end (which ends its last delivery).
        #expect(text.contains("uretprobe:\(essentials):\"\(FoundationSymbols.addObserver)\""))
        #expect(text.contains("uretprobe:\(essentials):\"\(FoundationSymbols.post)\""))
        #expect(text.hasPrefix("BEGIN { printf(\"READY\\n\"); }"))
        // The removal's name is the token's second and third words.
        let removal = text.split(separator: "\n").first { $0.contains(FoundationSymbols.removeObserver) } ?? ""
        #expect(removal.contains(#"reg("dx") >> 61"#))
        // The token's number and object filter (its first and fourth words: rdi and rcx at the removal,
        // rax and r8 at the add's return): Foundation numbers tokens per name and filter.
        #expect(removal.contains(#"reg("r13"), reg("di"), reg("cx")"#))
        let added = text.split(separator: "\n").first {
            $0.hasPrefix("uretprobe") && $0.contains(FoundationSymbols.addObserver)
        }
        #expect(added?.contains(#"reg("ax"), reg("r8")"#) == true)
        // An exec of the process is seen.
        #expect(text.contains("tracepoint:sched:sched_process_exec /pid == 4242/"))
    }

    @Test func everyProbeCountsItsLinesOnItsCPUAndTheCountsArePrintedEachSecond() throws {
        let text = try ProbeProgram(pid: 4242, library: essentials, queueLibrary: foundation, cpus: 3).text()
        let probes = text.split(separator: "\n").filter { $0.contains("printf(\"") && !$0.hasPrefix("BEGIN") }
        let counting = probes.filter { !$0.hasPrefix("interval") }
        // Every kind but one of a delivery's end and a post's (one design each); a typed add and
        // its return are probed in three functions (main actor, async and a sequence's iterator).
        #expect(counting.count == ProbeLineKind.allCases.count - 1 + 4)
        for probe in counting {
            // Timed before it is counted: a line counted in a `C` line is older than it.
            #expect(probe.contains("{ $t = nsecs; @c["))
            #expect(probe.contains(", cpu]++;"))
            #expect(!probe.contains("tid, nsecs"))
        }
        let interval = probes.first { $0.hasPrefix("interval:s:1 ") } ?? ""
        #expect(interval.contains("$k2 = @c[2, 0] + @c[2, 1] + @c[2, 2];"))
        #expect(interval.contains("$t = nsecs; printf(\"C 0 %llu"))
        #expect(interval.firstRange(of: "$t = nsecs")!.lowerBound > interval.firstRange(of: "$k11 =")!.lowerBound)
    }

    @Test func queueObserversAreProbedInLibFoundationOnlyWhenItHasTheirSymbols() throws {
        let without = try ProbeProgram(pid: 4242, library: essentials).text()
        #expect(!without.contains(FoundationSymbols.queueOperation))
        let text = try ProbeProgram(pid: 4242, library: essentials, queueLibrary: foundation).text()
        #expect(
            text.contains(
                "uprobe:\(foundation):\"\(FoundationSymbols.queueAddObserver)\" /pid == 4242 && reg(\"cx\") != 0/"))
        #expect(text.contains("uprobe:\(foundation):\"\(FoundationSymbols.queueOperation)\" /pid == 4242/"))
        #expect(text.contains("uretprobe:\(foundation):\"\(FoundationSymbols.queueOperation)\" /pid == 4242/"))
    }

    /// A directory name that is bpftrace code, as a process can map Foundation from: refused with
    /// one line, and no program text is made from it.
    @Test(arguments: [
        #"/tmp/x:"a" { system("id") } uprobe:/lib/libFoundationEssentials.so"#,
        "/tmp/evil\n{ printf(\"owned\") }/libFoundationEssentials.so",
        "/opt/swift/usr/lib/swift/linux/libFoundationEssentials.so",
        "/proc/4242/map_files/7fa5ea200000-7fa5ea782000/../../../../tmp/x",
        "/proc/4242/map_files/7FA5-7FB0", "/proc/42a/map_files/1-2", "/proc/4242/map_files/1-2 ",
        "/proc//map_files/1-2", "/proc/4242/map_files/-2",
    ])
    func aPathThatIsNotAMappingIsRefused(_ hostile: String) {
        for program in [
            ProbeProgram(pid: 4242, library: hostile),
            ProbeProgram(pid: 4242, library: essentials, queueLibrary: hostile),
        ] {
            #expect(throws: FoundationAttachError.self) { try program.text() }
            do {
                _ = try program.text()
            } catch {
                #expect(!error.description.contains("\n"))
                #expect(error.description.hasPrefix("refusing to probe pid 4242: "))
            }
        }
        #expect(!ProbeProgram.isSafeFilePath(hostile))
    }

    /// The session names files only by their mapping: the hostile path in /proc/PID/maps never
    /// reaches the text, only the mapping's numbers.
    @Test func aHostileMappedPathBecomesOnlyItsMappingsNumbers() throws {
        let hostileDirectory = #"/tmp/a"{ system("touch /tmp/owned") }"#
        let maps = ProcessMaps(
            "7fa5ea200000-7fa5ea782000 r-xp 00000000 fe:00 2251 \(hostileDirectory)/libFoundationEssentials.so\n")
        let mapping = try #require(maps.mapping(named: FoundationSymbols.libraryName))
        let text = try ProbeProgram(pid: 4242, library: mapping.mapFilesPath(pid: 4242)).text()
        #expect(!text.contains("system"))
        #expect(!text.contains("/tmp"))
        #expect(text.contains("uprobe:/proc/4242/map_files/7fa5ea200000-7fa5ea782000:"))
    }
}
