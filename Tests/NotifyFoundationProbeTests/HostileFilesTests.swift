import Glibc
import NotifyFoundationProbe
import Testing

/// What a watched process can plant where notifytop, as root, reads a file: a FIFO, a device, a
/// link. Each is refused at once, and a regular file is read only up to its bound.
@Suite struct HostileFilesTests {
    let directory: String = {
        var template = Array("/tmp/notifytop-hostile-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }()

    func remove() {
        for name in ["fifo", "link", "big", "small"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() {
        defer { remove() }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Before, this open blocked for ever (no writer comes): the test would hang.
        #expect(SystemFiles.bytes(fifo) == nil)
        #expect(SystemFiles.bytes(fifo, followsLinks: true) == nil)
        #expect(FoundationReadiness.check(file: fifo, statically: false) == .unreadable(fifo))
    }

    @Test func aDeviceIsRefusedAndNotRead() {
        // Before, /dev/zero was read up to the limit: 1 GiB.
        #expect(SystemFiles.bytes("/dev/zero", followsLinks: true) == nil)
        #expect(SystemFiles.text("/dev/zero") == nil)
    }

    @Test func aLinkIsNotFollowedUnlessAskedAndThenOnlyToARegularFile() {
        defer { remove() }
        let link = directory + "/link"
        #expect(symlink("/dev/zero", link) == 0)
        #expect(SystemFiles.bytes(link) == nil)
        #expect(SystemFiles.bytes(link, followsLinks: true) == nil)
    }

    @Test func aRegularFileIsReadUpToItsBound() {
        defer { remove() }
        let small = directory + "/small"
        let fd = open(small, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        #expect(write(fd, "0123456789", 10) == 10)
        close(fd)
        #expect(SystemFiles.bytes(small, limit: 10) == Array("0123456789".utf8))
        #expect(SystemFiles.bytes(small, limit: 9) == nil)
    }
}
