import CAllocationCounter
import Foundation
import NotifyKit

final class Sink: @unchecked Sendable { var count = 0 }
let center = NotifyCenter()
let sink = Sink()
let name = Notification.Name("bench.post")
let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in sink.count += 1 }
for _ in 0..<1000 { center.post(name: name) }
let before = notify_thread_allocation_count()
let start = MonotonicClock.now()
for _ in 0..<1_000_000 { center.post(name: name) }
let end = MonotonicClock.now()
let after = notify_thread_allocation_count()
print("allocs/post", Double(after - before) / 1e6, "ns/post", Double(end - start) / 1e6, sink.count)
let x = [1,2,3].map { $0 * 2 }
print(notify_thread_allocation_count() - after, x)
token.cancel()
