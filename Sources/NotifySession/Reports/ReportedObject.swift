import NotifyModel

/// A posted object as `notifytop explain`'s JSON documents name it: the trace's id, its type and
/// its address.
struct ReportedObject: Sendable, Encodable {
    var id: UInt64
    var type: String
    var address: String

    init(_ object: ObjectInfo) {
        id = object.id
        type = object.typeName
        address = "0x" + String(object.address, radix: 16)
    }
}
