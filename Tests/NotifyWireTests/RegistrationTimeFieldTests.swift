import Foundation
@testable import NotifyWire
import Testing

/// `registeredAt` on `register` lines: the app's own registration time, which a snapshot's `t`
/// (the moment of the snapshot) is not.
@Suite struct RegistrationTimeFieldTests {
    static func registration(registeredAt: UInt64?) -> TraceEvent {
        .registered(
            TraceRegistration(
                seq: 9, timestamp: 5_000, thread: 1, id: 4, name: "cartDidChange", kind: .block, observer: nil,
                object: nil, target: .posting, targetLabel: nil, callsite: 2, preexisting: true,
                capturesObserverStrongly: false, mainThreadOnly: false, registeredAt: registeredAt))
    }

    @Test(
        "the fast path reads registeredAt, a number or null, as the general path does",
        arguments: [UInt64?.none, 0, 1_234, 1_700_000_000_000_000_000])
    func fastPathReadsRegisteredAt(registeredAt: UInt64?) {
        let event = Self.registration(registeredAt: registeredAt)
        let line = TraceEncoder.line(for: event)
        #expect(line.hasSuffix(",\"registeredAt\":\(registeredAt.map(String.init) ?? "null")}"))
        #expect(fastPathEvent(line) == event)
        #expect(decodeOne(" " + line) == .event(event))
    }

    @Test("a register line without registeredAt (an older stream) reads as unknown, and t stands in")
    func absentFieldIsUnknown() throws {
        let line =
            #"{"k":"register","seq":9,"t":5000,"thread":1,"id":4,"name":"cartDidChange","kind":"block","observer":null,"object":null,"target":"posting","targetLabel":null,"callsite":2,"preexisting":true,"capturesObserverStrongly":false,"mainThreadOnly":false}"#
        guard case .event(.registered(let registration)) = decodeOne(line) else {
            Issue.record("does not decode: \(line)")
            return
        }
        #expect(registration.registeredAt == nil)
        #expect(registration.registrationTime == 5_000)
    }

    @Test("a registeredAt that is not an unsigned integer is a clear error")
    func badValueIsRefused() {
        let line = TraceEncoder.line(for: Self.registration(registeredAt: 7))
            .replacingOccurrences(of: "\"registeredAt\":7", with: "\"registeredAt\":\"soon\"")
        let error = decodingError(line)
        #expect(error != nil)
        #expect(error.map { "\($0)".contains("registeredAt") } == true, "\(String(describing: error))")
    }
}
