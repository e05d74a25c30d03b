import NotifyFoundationProbe
import Testing

/// The generated bpftrace program probes the four functions in the given file, for one process.
@Suite struct ProbeProgramTests {
    @Test func everyFunctionIsProbedInTheFileForThePid() {
        let text = ProbeProgram(pid: 4242, library: "/lib/libFoundationEssentials.so").text
        for symbol in FoundationSymbols.required {
            #expect(text.contains("uprobe:/lib/libFoundationEssentials.so:\"\(symbol)\" /pid == 4242/"))
        }
        // Returns: the add's token and each post's end (which ends its last delivery).
        #expect(text.contains("uretprobe:/lib/libFoundationEssentials.so:\"\(FoundationSymbols.addObserver)\""))
        #expect(text.contains("uretprobe:/lib/libFoundationEssentials.so:\"\(FoundationSymbols.post)\""))
        #expect(text.hasPrefix("BEGIN { printf(\"READY\\n\"); }"))
        // The removal's name is the token's second and third words.
        let removal = text.split(separator: "\n").first { $0.contains(FoundationSymbols.removeObserver) } ?? ""
        #expect(removal.contains(#"reg("dx") >> 61"#))
    }

    @Test func queueObserversAreProbedInLibFoundationOnlyWhenItHasTheirSymbols() {
        let without = ProbeProgram(pid: 4242, library: "/lib/libFoundationEssentials.so").text
        #expect(!without.contains(FoundationSymbols.queueOperation))
        let text = ProbeProgram(
            pid: 4242, library: "/lib/libFoundationEssentials.so", queueLibrary: "/lib/libFoundation.so"
        ).text
        #expect(
            text.contains(
                "uprobe:/lib/libFoundation.so:\"\(FoundationSymbols.queueAddObserver)\" /pid == 4242 && reg(\"cx\") != 0/"
            ))
        #expect(text.contains("uprobe:/lib/libFoundation.so:\"\(FoundationSymbols.queueOperation)\" /pid == 4242/"))
        #expect(text.contains("uretprobe:/lib/libFoundation.so:\"\(FoundationSymbols.queueOperation)\" /pid == 4242/"))
    }
}
