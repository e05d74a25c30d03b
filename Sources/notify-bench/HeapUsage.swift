#if canImport(Glibc)
import Glibc
#endif

/// Bytes the process has allocated from glibc's malloc and not freed, across all arenas:
/// `mallinfo2()`'s `uordblks` (in-use chunks, headers included) plus `hblkhd` (mmapped chunks).
enum HeapUsage {
    static func bytesInUse() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks) + Int(info.hblkhd)
    }
}
