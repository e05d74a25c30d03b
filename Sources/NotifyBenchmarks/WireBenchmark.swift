package import NotifyWire

/// Encode and decode throughput of the codec, for the shared benchmark (`notify-bench`) to call.
///
/// The target is at least one million events per second each way on one core. The
/// functions build a realistic mix of lines (mostly posts and deliveries, with registrations,
/// removals and queue activity), run the codec over it the way the exporter and the viewer do
/// (a reused buffer flushed every 64 KiB; 64 KiB reads), and time only that. The clock is passed
/// in, so this module stays free of clock reads.
///
/// ```swift
/// let encode = WireBenchmark.measureEncode(eventCount: 1_000_000, now: MonotonicClock.now)
/// print(encode)  // "1000000 events, 171.3 MB in 0.412 s: 2.43M events/s, 415.8 MB/s"
/// ```
package enum WireBenchmark {
    /// One timed run.
    package struct Measurement: Sendable, CustomStringConvertible {
        /// Events encoded or decoded.
        package var events: Int
        /// Bytes of JSON Lines produced or consumed.
        package var bytes: Int
        /// Wall time of the timed part, from the injected clock.
        package var nanoseconds: UInt64

        /// Creates a measurement.
        package init(events: Int, bytes: Int, nanoseconds: UInt64) {
            self.events = events
            self.bytes = bytes
            self.nanoseconds = nanoseconds
        }

        /// Events per second: the number the codec target is stated in.
        package var eventsPerSecond: Double {
            nanoseconds == 0 ? 0 : Double(events) * 1e9 / Double(nanoseconds)
        }

        /// Megabytes (10⁶ bytes) per second, to compare with a socket's or a disk's bandwidth.
        package var megabytesPerSecond: Double {
            nanoseconds == 0 ? 0 : Double(bytes) * 1e3 / Double(nanoseconds)
        }

        /// `"1000000 events, 171.3 MB in 0.412 s: 2.43M events/s, 415.8 MB/s"`.
        package var description: String {
            "\(events) events, \(Self.fixed(Double(bytes) / 1e6, 1)) MB in "
                + "\(Self.fixed(Double(nanoseconds) / 1e9, 3)) s: \(Self.fixed(eventsPerSecond / 1e6, 2))M events/s, "
                + "\(Self.fixed(megabytesPerSecond, 1)) MB/s"
        }

        private static func fixed(_ value: Double, _ decimals: Int) -> String {
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let scaled = Int((value * scale).rounded())
            let whole = scaled / Int(scale)
            let fraction = String(scaled % Int(scale))
            return decimals == 0
                ? "\(whole)" : "\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
    }

    /// A deterministic stream of `count` events shaped like a busy app's: per ten events, two
    /// posts, five deliveries (one handed off to a dispatch queue), a registration, a removal and
    /// a queue action.
    package static func sampleEvents(count: Int) -> [TraceEvent] {
        let names = ["CartDidChangeNotification", "themeDidChange", "DownloadProgressNotification", "userDidLogIn"]
        var events: [TraceEvent] = []
        events.reserveCapacity(count)
        var clock: UInt64 = 1_000_000_000
        var postID: UInt64 = 0
        for index in 0..<count {
            let seq = UInt64(index + 1)
            clock += 850
            let name = names[(index / 10) % names.count]
            let registration = UInt64(index / 10 + 1)
            switch index % 10 {
            case 0, 5:
                postID += 1
                events.append(
                    .posted(
                        TracePost(
                            seq: seq, timestamp: clock, thread: 1, postID: postID, name: name,
                            object: index % 20 == 0 ? 7 : nil,
                            hasUserInfo: index % 3 == 0, matched: 3, depth: 1, parentPostID: 0, callsite: 12)))
            case 3:
                events.append(
                    .registered(
                        TraceRegistration(
                            seq: seq, timestamp: clock, thread: 1, id: registration, name: name, kind: .block,
                            observer: nil,
                            object: nil, target: .posting, targetLabel: nil, callsite: 4, preexisting: false,
                            capturesObserverStrongly: false)))
            case 4:
                events.append(
                    .removed(
                        TraceRemoval(
                            seq: seq, timestamp: clock, thread: 1, registration: registration, reason: .tokenCancelled))
                )
            case 8:
                events.append(
                    .queue(
                        TraceQueueActivity(
                            seq: seq, timestamp: clock, thread: 1, queueID: 1, action: .enqueued, name: name,
                            style: "asap",
                            count: 1, pending: 2)))
            default:
                let handedOff = index % 10 == 9
                events.append(
                    .delivered(
                        TraceDelivery(
                            seq: seq, timestamp: clock, thread: handedOff ? 2 : 1, postID: postID,
                            registration: registration,
                            name: name, postingThread: 1, target: handedOff ? .dispatchQueue : .posting,
                            start: clock - 620,
                            duration: 620, wait: handedOff ? 15_400 : 0, depth: 1)))
            }
        }
        return events
    }

    /// Times encoding `eventCount` events into one reused buffer, emptied every 64 KiB as an
    /// exporter does after each write.
    ///
    /// - Parameter now: A monotonic clock in nanoseconds, such as NotifyKit's `MonotonicClock.now`.
    package static func measureEncode(eventCount: Int = 1_000_000, now: () -> UInt64) -> Measurement {
        let events = sampleEvents(count: eventCount)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(128 * 1024)
        var bytes = 0
        let start = now()
        for event in events {
            TraceEncoder.encode(event, into: &buffer)
            if buffer.count >= 64 * 1024 {
                bytes += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        bytes += buffer.count
        let elapsed = now() - start
        return Measurement(events: events.count, bytes: bytes, nanoseconds: elapsed)
    }

    /// Times decoding `eventCount` events fed in `chunkSize` pieces, as a viewer reading a socket.
    ///
    /// - Parameter now: A monotonic clock in nanoseconds, such as NotifyKit's `MonotonicClock.now`.
    package static func measureDecode(
        eventCount: Int = 1_000_000, chunkSize: Int = 64 * 1024,
        now: () -> UInt64
    ) -> Measurement {
        var bytes: [UInt8] = []
        TraceEncoder.encode(sampleEvents(count: eventCount), into: &bytes)
        var decoder = TraceDecoder()
        var decoded = 0
        let start = now()
        bytes.withUnsafeBufferPointer { all in
            var offset = 0
            while offset < all.count {
                let end = min(offset + chunkSize, all.count)
                decoder.feed(UnsafeBufferPointer(rebasing: all[offset..<end]))
                offset = end
                while let event = try? decoder.next() {
                    if event.kind != nil { decoded += 1 }
                }
            }
        }
        let elapsed = now() - start
        precondition(decoded == eventCount, "decoded \(decoded) of \(eventCount) events")
        return Measurement(events: decoded, bytes: bytes.count, nanoseconds: elapsed)
    }
}
