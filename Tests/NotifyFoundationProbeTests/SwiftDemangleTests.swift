@testable import NotifyFoundationProbe
import Testing

/// A typed message's type, read from its metadata symbol as the probe finds it.
@Suite("Message types from metadata symbols")
struct SwiftDemangleTests {
    @Test("a type metadata symbol reads as the type; another symbol reads as nothing")
    func metadataType() {
        #expect(SwiftDemangle.metadataType("$s3app7EmptiedVN") == "app.Emptied")
        #expect(SwiftDemangle.metadataType("$s3app7EmptiedVMn") == nil, "a nominal type descriptor")
        #expect(SwiftDemangle.metadataType("app.Emptied") == nil)
        #expect(SwiftDemangle.metadataType("$s3app" + String(repeating: "7Emptied", count: 200) + "VN") == nil)
    }
}
