#if canImport(Glibc)
import Glibc
#endif

/// Bytes the process has taken from glibc's malloc and not freed, across all arenas: `mallinfo2()`'s
/// `uordblks` (in-use chunks, headers included) plus `hblkhd` (mmapped chunks).
///
/// Glibc's Swift module leaves out `<malloc.h>`, so `mallinfo2` is looked up with `dlsym`. It returns
/// a 10-word struct, which the x86-64 System V ABI returns through a hidden pointer passed as the
/// first argument (and echoed in rax): that is the signature it is called with. Other
/// architectures pass that pointer elsewhere, so there it is unavailable.
enum HeapUsage {
    private typealias MallInfo2 = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?

    /// `struct mallinfo2`: arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost.
    private static let fieldCount = 10
    private static let hblkhd = 4
    private static let uordblks = 7

    private static let mallinfo2: MallInfo2? = {
        #if arch(x86_64) && os(Linux)
        guard let symbol = dlsym(nil, "mallinfo2") else { return nil }
        return unsafeBitCast(symbol, to: MallInfo2.self)
        #else
        return nil
        #endif
    }()

    static var isAvailable: Bool { mallinfo2 != nil }

    /// Bytes in use now; nil where `mallinfo2` cannot be called.
    static func bytesInUse() -> Int? {
        guard let mallinfo2 else { return nil }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: fieldCount) { fields in
            fields.initialize(repeating: 0)
            _ = mallinfo2(UnsafeMutableRawPointer(fields.baseAddress!))
            return fields[uordblks] + fields[hblkhd]
        }
    }

    /// Checks the call against known allocations: 4,096 blocks of 64 bytes must add 256–384 KiB.
    static func selfCheck() -> Bool {
        guard let before = bytesInUse() else { return false }
        let blocks = (0..<4_096).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8) }
        let grown = (bytesInUse() ?? before) - before
        for block in blocks { block.deallocate() }
        return (4_096 * 64...4_096 * 96).contains(grown)
    }
}
