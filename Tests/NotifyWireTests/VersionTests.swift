import Testing
import NotifyWire

/// The header decides whether a stream can be read at all: same major, any minor.
@Suite struct VersionTests {
    static func header(version: String, format: String = "notifytop-trace") -> String {
        #"{"k":"header","format":""# + format + #"","version":""# + version
            + #"","pid":1,"process":"p","center":"c","clockMono":1,"clockWall":2,"producer":"x"}"#
    }

    @Test(
        "an unknown major version is refused with a message saying what is supported",
        arguments: ["0.9", "2.0", "17.3"])
    func refusesOtherMajor(version: String) throws {
        let error = try #require(decodingError(Self.header(version: version)))
        #expect(error.reason == .unsupportedVersion(version))
        #expect(error.isFatal)
        #expect(
            error.description == "line 1: trace format version \(version) is not supported: "
                + "this reader understands 1.x (newest 1.5)")
    }

    @Test(
        "a newer minor version is accepted, with its new fields and kinds ignored",
        arguments: ["1.0", "1.1", "1.2", "1.42"])
    func acceptsNewerMinor(version: String) throws {
        let text =
            Self.header(version: version).dropLast() + #","newField":[1,2]}"# + "\n"
            + #"{"k":"future-kind","seq":1,"t":1}"# + "\n" + TraceSamples.line(.end) + "\n"
        var decoder = TraceDecoder()
        decoder.feed(text.utf8)
        let header = try #require(try decoder.next())
        #expect(header.kind == .header)
        #expect(decoder.header?.version == TraceFormatVersion(version))
        #expect(try decoder.next()?.kind == nil)
        #expect(try decoder.next() == TraceSamples.event(.end))
    }

    @Test("a header of another format is refused", arguments: ["otherapp-log", "notifytop-trace2", ""])
    func refusesOtherFormat(format: String) throws {
        let error = try #require(decodingError(Self.header(version: "1.0", format: format)))
        #expect(error.reason == .notATrace(format: format))
        #expect(error.isFatal)
    }

    @Test("a version that is not major.minor is invalid", arguments: ["1", "1.0.0", "v1.0", "1.x", "", ".1", "1."])
    func invalidVersionText(version: String) throws {
        let error = try #require(decodingError(Self.header(version: version)))
        #expect(error.reason == .invalidValue(kind: "header", field: "version", value: "\"\(version)\""))
        #expect(!error.isFatal)
    }

    @Test("versions parse, print and order as major.minor")
    func versionValues() {
        #expect(TraceFormatVersion("1.10") == TraceFormatVersion(major: 1, minor: 10))
        #expect(TraceFormatVersion(major: 1, minor: 9) < TraceFormatVersion(major: 1, minor: 10))
        #expect(TraceFormatVersion.current.description == "1.5")
        #expect(TraceFormatVersion(major: 1, minor: 7).isReadable)
        #expect(!TraceFormatVersion(major: 2, minor: 0).isReadable)
    }
}

@Suite("Fields added within a major version")
struct AddedFieldTests {
    @Test("a registration without mainThreadOnly (an early 1.0 stream) reads as false; true round-trips")
    func mainThreadOnlyDefaultsToFalse() throws {
        let early =
            #"{"k":"register","seq":2,"t":1,"thread":1,"id":4,"name":"n","kind":"block","observer":null,"object":null,"target":"main","targetLabel":null,"callsite":2,"preexisting":false,"capturesObserverStrongly":false}"#
        var decoder = TraceDecoder()
        decoder.feed(Array((early + "\n").utf8))
        guard case .registered(let registration)? = try decoder.next() else {
            Issue.record("expected a registration")
            return
        }
        #expect(registration.mainThreadOnly == false)
        var flagged = registration
        flagged.mainThreadOnly = true
        let line = TraceEncoder.line(for: .registered(flagged))
        #expect(line.contains(#""mainThreadOnly":true"#))
        var again = TraceDecoder()
        again.feed(Array(line.utf8))
        again.finish()
        #expect(try again.next() == .registered(flagged))
    }
}
