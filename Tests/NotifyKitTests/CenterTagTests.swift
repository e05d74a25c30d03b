import Foundation
@testable import NotifyKit
import Testing

/// One recorder serving several centers: each center's records and whole events come out of the
/// drain with the tag of the probe that center attached.
@Suite struct CenterTagTests {
    /// A recording probe that tags its center's records.
    final class TaggedProbe: RecordingProbe, Sendable {
        let recorder: ProbeRecorder
        let centerTag: UInt8
        init(_ recorder: ProbeRecorder, tag: UInt8) {
            self.recorder = recorder
            centerTag = tag
        }
        func receive(_ event: ProbeEvent) { recorder.receive(event, center: centerTag) }
    }

    /// What the drain hands over, with each item's center.
    struct Collector: ProbeRecordVisitor {
        var items: [(what: String, center: UInt8)] = []
        mutating func visit(_ record: ProbeDrainedRecord) {
            items.append(("\(record.kind) \(record.name)", record.center))
        }
        mutating func visit(_ event: ProbeEvent) { items.append(("untagged", 255)) }
        mutating func visit(_ event: ProbeEvent, center: UInt8) {
            if case .registered(let registration) = event.kind {
                items.append(("registered \(registration.name ?? "*")", center))
            } else {
                items.append(("other", center))
            }
        }
    }

    @Test("posts, deliveries and registrations carry the tag of their center's probe")
    func tagsThroughTheDrain() {
        let recorder = ProbeRecorder()
        let first = NotifyCenter(label: "first")
        let second = NotifyCenter(label: "second")
        let attachments = [
            first.attach(TaggedProbe(recorder, tag: 0)), second.attach(TaggedProbe(recorder, tag: 7)),
        ]
        let tokens = [
            first.addObserver(forName: Notification.Name("a"), object: nil, queue: nil) { _ in },
            second.addObserver(forName: Notification.Name("b"), object: nil, queue: nil) { _ in },
        ]
        first.post(name: Notification.Name("a"))
        second.post(name: Notification.Name("b"))
        var collector = Collector()
        recorder.drain(to: &collector)
        let got = collector.items.map { "\($0.what)@\($0.center)" }
        #expect(
            got == [
                "registered a@0", "registered b@7", "posted a@0", "delivered a@0", "posted b@7", "delivered b@7",
            ])
        withExtendedLifetime((attachments, tokens)) {}
    }

    @Test("post ids are unique across centers, and a nested post names its parent on the other center")
    func postIDsAcrossCenters() {
        let probe = InMemoryProbe()
        let first = NotifyCenter(label: "first")
        let second = NotifyCenter(label: "second")
        let attachments = [first.attach(probe), second.attach(probe)]
        let tokens = [
            first.addObserver(forName: Notification.Name("a"), object: nil, queue: nil) { _ in
                second.post(name: Notification.Name("b"))
            }
        ]
        first.post(name: Notification.Name("a"))
        second.post(name: Notification.Name("b"))
        let posts = probe.events.compactMap { if case .posted(let post) = $0.kind { post } else { nil } }
        #expect(posts.map(\.name) == ["a", "b", "b"])
        #expect(Set(posts.map(\.postID)).count == 3)
        #expect(posts[1].parentPostID == posts[0].postID && posts[1].depth == 2)
        withExtendedLifetime((attachments, tokens)) {}
    }
}
