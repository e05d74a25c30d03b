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

    /// A value filter's number, kept while the latest registration filtering on that value lives.
    private final class ValueEntry {
        weak var filter: ValueFilter?
        let serial: UInt32

        init(filter: ValueFilter, serial: UInt32) {
            self.filter = filter
            self.serial = serial
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var values: [AnyHashable: ValueEntry] = [:]
    private var last: UInt32 = 0
    private var sweepAt = 64
    private var valuesSweepAt = 64

    /// The object's serial, assigning a new one if the object is new (or its address was reused).
    mutating func serial(registering object: AnyObject) -> UInt64 {
        let key = ObjectIdentifier(object)
        if let entry = entries[key], entry.object === object { return UInt64(entry.serial) }
        entries[key] = Entry(object: object, serial: next())
        if entries.count >= sweepAt {
            entries = entries.filter { $0.value.object != nil }
            sweepAt = max(64, entries.count * 2)
        }
        return UInt64(last)
    }

    /// The serial of a value filter: equal values registered while one of them is still filtered
    /// on share it, as one object would.
    mutating func serial(registering filter: ValueFilter) -> UInt64 {
        if let entry = values[filter.value], entry.filter != nil {
            entry.filter = filter
            return UInt64(entry.serial)
        }
        let serial = next()
        values[filter.value] = ValueEntry(filter: filter, serial: serial)
        if values.count >= valuesSweepAt {
            values = values.filter { $0.value.filter != nil }
            valuesSweepAt = max(64, values.count * 2)
        }
        return UInt64(serial)
    }

    /// The serial of a value some live registration filters on; 0 otherwise.
    func serial(ofValue value: AnyHashable) -> UInt64 {
        guard let entry = values[value], entry.filter != nil else { return 0 }
        return UInt64(entry.serial)
    }

    private mutating func next() -> UInt32 {
        last &+= 1
        if last == 0 { last = 1 }  // 0 means "no serial"
        return last
    }

    /// The object's serial if it was registered and is that same object; 0 otherwise.
    func serial(of object: AnyObject) -> UInt64 {
        guard let entry = entries[ObjectIdentifier(object)], entry.object === object else { return 0 }
        return UInt64(entry.serial)
    }
}
