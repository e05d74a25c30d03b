/// Numbers the objects a center has seen as observers or object filters, reusing a number only
/// after 2³² others, so a new object at a recycled address is told apart from the one that lived
/// there before. Numbers fit 32 bits so a registration stores its filter's in 4 bytes.
///
/// Guarded by the center's lock. Dead entries are swept when the table has doubled since the last
/// sweep, so it stays proportional to the live observers and filters.
struct ObjectSerials {
    private final class Entry {
        weak var object: AnyObject?
        let serial: UInt32

        init(object: AnyObject, serial: UInt32) {
            self.object = object
            self.serial = serial
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var last: UInt32 = 0
    private var sweepAt = 64

    /// The object's serial, assigning a new one if the object is new (or its address was reused).
    mutating func serial(registering object: AnyObject) -> UInt64 {
        let key = ObjectIdentifier(object)
        if let entry = entries[key], entry.object === object { return UInt64(entry.serial) }
        last &+= 1
        if last == 0 { last = 1 }  // 0 means "no serial"
        entries[key] = Entry(object: object, serial: last)
        if entries.count >= sweepAt {
            entries = entries.filter { $0.value.object != nil }
            sweepAt = max(64, entries.count * 2)
        }
        return UInt64(last)
    }

    /// The object's serial if it was registered and is that same object; 0 otherwise.
    func serial(of object: AnyObject) -> UInt64 {
        guard let entry = entries[ObjectIdentifier(object)], entry.object === object else { return 0 }
        return UInt64(entry.serial)
    }
}
