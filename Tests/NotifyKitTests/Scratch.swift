import Testing
import Foundation
@testable import NotifyKit

final class Obj: @unchecked Sendable { func touch() {} }

func generic<O: AnyObject>(_ owner: O, _ h: @escaping (O, Notification) -> Void) -> (UnsafeRawPointer?, UnsafeRawPointer) {
    (closureContext(of: h), UnsafeRawPointer(Unmanaged.passUnretained(owner).toOpaque()))
}

@Test func scratchCtx() {
    let o = Obj()
    let h: (Obj, Notification) -> Void = { _, _ in o.touch() }
    print("direct", closureContext(of: h) as Any, Unmanaged.passUnretained(o).toOpaque())
    print("generic", generic(o) { _, _ in o.touch() })
    let h2: () -> Void = { o.touch() }
    print("nullary", closureContext(of: h2) as Any)
}
