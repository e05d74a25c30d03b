// A Foundation-only app for foundation-e2e.sh: it knows nothing of notifytop. It waits until the
// file named by its first argument exists (the probes are attached), then registers block
// observers (one block twice from one line: a duplicate), a slow handler and a queue observer,
// posts from two named threads, removes one registration and posts its name again, posts a typed
// message, exercises registration identity (one name under two object filters, closures churned
// across names and private centers, a removal from the wrong center), and prints its own counts
// for the checker. With "exec" as third argument it then execs
// itself (the new run posts again); with "burst" it only posts that many times at once and exits;
// with "paced" it posts to two observers every that many milliseconds until a file exists.
import Foundation

let center = NotificationCenter.default
let cart = Notification.Name("CartDidChange")
let sync = Notification.Name("SyncFinishedWithAVeryLongName")
// A typed message: its posts pass through the probed `_post`, its observer's add does not.
final class Cart: Sendable {}
struct CartEmptied: NotificationCenter.MainActorMessage { typealias Subject = Cart }
let lock = NSLock()
var delivered: [String: Int] = [:]
func count(_ name: String) {
    lock.lock()
    delivered[name, default: 0] += 1
    lock.unlock()
}

let arguments = CommandLine.arguments
let goFile = arguments.count > 1 ? arguments[1] : "/nonexistent"
let postsPerThread = arguments.count > 2 ? Int(arguments[2])! : 500
print("pid \(getpid())")
fflush(stdout)
for _ in 0..<600 where !FileManager.default.fileExists(atPath: goFile) { usleep(50_000) }
// With "burst": only an unpaced burst of that many posts to one observer, then exit at once.
if arguments.count > 3 && arguments[3] == "burst" {
    let burst = Notification.Name("Burst")
    let token = center.addObserver(forName: burst, object: nil, queue: nil) { _ in count("Burst") }
    for _ in 0..<postsPerThread { center.post(name: burst, object: nil) }
    print("burst Burst \(postsPerThread) \(delivered["Burst"] ?? 0)")
    fflush(stdout)
    withExtendedLifetime(token) {}
    exit(0)
}

// With "paced": two observers of one name, a post every that many milliseconds until the file
// named by the fourth argument exists (the probes switch modes meanwhile), then the counts.
if arguments.count > 4 && arguments[3] == "paced" {
    let paced = Notification.Name("Paced")
    let tokens = (0..<2).map { _ in center.addObserver(forName: paced, object: nil, queue: nil) { _ in count("Paced") }
    }
    var posts = 0
    while !FileManager.default.fileExists(atPath: arguments[4]) {
        center.post(name: paced, object: nil)
        posts += 1
        usleep(useconds_t(postsPerThread * 1_000))
    }
    print("paced Paced \(posts) \(delivered["Paced"] ?? 0)")
    fflush(stdout)
    withExtendedLifetime(tokens) {}
    exit(0)
}

var tokens: [NSObjectProtocol] = []
for _ in 0..<2 {
    tokens.append(center.addObserver(forName: cart, object: nil, queue: nil) { _ in count("CartDidChange") })
}
tokens.append(
    center.addObserver(forName: sync, object: nil, queue: nil) { _ in
        count("SyncFinishedWithAVeryLongName")
        usleep(30_000)
    })
// A queue observer: its block runs as an operation on the queue's own thread while post waits.
let queue = OperationQueue()
let queued = Notification.Name("QueuedWork")
tokens.append(center.addObserver(forName: queued, object: nil, queue: queue) { _ in count("QueuedWork") })
// Removed once the threads are done: the last post of its name is explained as removed before it.
let temporary = center.addObserver(forName: cart, object: nil, queue: nil) { _ in count("CartDidChange") }

let group = DispatchGroup()
for worker in 0..<2 {
    let thread = Thread {
        // Foundation's `Thread.name` does not reach the kernel here: name the thread for Linux too.
        if let comm = fopen("/proc/thread-self/comm", "w") {
            fputs("poster-\(worker)", comm)
            fclose(comm)
        }
        for index in 0..<postsPerThread {
            center.post(name: cart, object: nil)
            if index % 100 == 0 { center.post(name: sync, object: nil) }
        }
        group.leave()
    }
    thread.name = "poster-\(worker)"
    group.enter()
    thread.start()
}
group.wait()
center.removeObserver(temporary)
print("removed at foundation-app.swift:\(#line - 1)")
center.post(name: cart, object: nil)
for _ in 0..<5 { center.post(name: queued, object: nil) }
let emptied = MainActor.assumeIsolated {
    center.addObserver(for: CartEmptied.self) { _ in count("CartEmptied") }
}
MainActor.assumeIsolated {
    for _ in 0..<3 { center.post(CartEmptied()) }
}
print("message-post at foundation-app.swift:\(#line - 2)")

// Registration identity. One name under two object filters: Foundation numbers both tokens 0.
final class Sender {}
let senders = (Sender(), Sender())
let filtered = Notification.Name("Filtered")
let first = center.addObserver(forName: filtered, object: senders.0, queue: nil) { _ in count("Filtered") }
let second = center.addObserver(forName: filtered, object: senders.1, queue: nil) { _ in count("Filtered") }
for _ in 0..<2 { center.post(name: filtered, object: senders.0) }
for _ in 0..<3 { center.post(name: filtered, object: senders.1) }
center.removeObserver(first)
center.post(name: filtered, object: senders.0)
center.post(name: filtered, object: senders.1)
center.removeObserver(second)
// Closures churned across names: each observer is removed before the next of the other name is
// added, so the next may get the freed closure's addresses; so do private centers, one at a time.
for index in 0..<20 {
    let name = index % 2 == 0 ? "ChurnEven" : "ChurnOdd"
    let token = center.addObserver(forName: Notification.Name(name), object: nil, queue: nil) { _ in count(name) }
    center.post(name: Notification.Name(name), object: nil)
    center.removeObserver(token)
    let privateName = index % 2 == 0 ? "PrivateEven" : "PrivateOdd"
    let privateCenter = NotificationCenter()
    let kept = privateCenter.addObserver(forName: Notification.Name(privateName), object: nil, queue: nil) { _ in
        count(privateName)
    }
    privateCenter.post(name: Notification.Name(privateName), object: nil)
    privateCenter.removeObserver(kept)
    // The first four: a center that dies with its observer still registered (its end is seen).
    if index < 4 {
        let dyingName = index % 2 == 0 ? "DyingEven" : "DyingOdd"
        let dying = NotificationCenter()
        let left = dying.addObserver(forName: Notification.Name(dyingName), object: nil, queue: nil) { _ in
            count(dyingName)
        }
        dying.post(name: Notification.Name(dyingName), object: nil)
        withExtendedLifetime(left) {}
    }
}
// A token removed from a center that does not hold it, then from its own.
let otherCenter = NotificationCenter()
let wrongCenter = Notification.Name("WrongCenter")
let misplaced = otherCenter.addObserver(forName: wrongCenter, object: nil, queue: nil) { _ in count("WrongCenter") }
center.removeObserver(misplaced)
print("wrong-center-remove at foundation-app.swift:\(#line - 1)")
otherCenter.post(name: wrongCenter, object: nil)
otherCenter.removeObserver(misplaced)
print(
    "identity Filtered 7 \(delivered["Filtered"] ?? 0) ChurnEven \(delivered["ChurnEven"] ?? 0) ChurnOdd "
        + "\(delivered["ChurnOdd"] ?? 0) PrivateEven \(delivered["PrivateEven"] ?? 0) PrivateOdd "
        + "\(delivered["PrivateOdd"] ?? 0) WrongCenter \(delivered["WrongCenter"] ?? 0) DyingEven "
        + "\(delivered["DyingEven"] ?? 0) DyingOdd \(delivered["DyingOdd"] ?? 0)")
print("identity-posts 52 removed 43 dead-center 4")
lock.lock()
let syncPosts = 2 * ((postsPerThread + 99) / 100)
print("posts CartDidChange \(2 * postsPerThread + 1) SyncFinishedWithAVeryLongName \(syncPosts)")
print(
    "deliveries CartDidChange \(delivered["CartDidChange"] ?? 0) SyncFinishedWithAVeryLongName \(delivered["SyncFinishedWithAVeryLongName"] ?? 0)"
)
print("queued QueuedWork 5 \(delivered["QueuedWork"] ?? 0)")
print("message CartEmptied 3 \(delivered["CartEmptied"] ?? 0)")
print("live 4 removed 1")
lock.unlock()
fflush(stdout)
// With "exec", the process then becomes a new run of this program, which posts anew ("after-exec").
if arguments.count > 3 && arguments[3] == "exec" {
    let words: [String] = ["app", goFile, "5", "after-exec"]
    var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    execv("/proc/self/exe", &argv)
}
// Stay alive (with the tokens) until the viewer is done; with "repeat", posting CartDidChange every
// 100 ms meanwhile, for a viewer that attaches late.
let repeats = arguments.count > 3 && arguments[3] == "repeat"
for _ in 0..<600 where FileManager.default.fileExists(atPath: goFile) {
    if repeats { center.post(name: cart, object: nil) }  // repeat-post
    usleep(repeats ? 100_000 : 50_000)
}
withExtendedLifetime((tokens, emptied)) {}
