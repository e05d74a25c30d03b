import Foundation
import NotifySystem
import NotifyTraceViewer

/// The overview's look at its host, on a thread of its own: a listing over ssh is a round trip
/// and opening a stream starts an ssh child, which the screen must not wait for. One look runs
/// at a time; what it found is taken by the run loop's next poll.
final class OverviewLook: Sendable {
    /// What one look found: the listing (or why it failed) and a stream for each process it
    /// was asked to open.
    struct Found: @unchecked Sendable {  // each reader is used by one thread at a time: made there, read here
        var listing: Result<HostListing, HostFailure>
        var opened: [Int32: Result<TraceReader, HostFailure>]
    }

    private struct State {
        var running = false
        var found: Found?
    }

    private let state = LockedValue(State())

    /// Starts a look unless one runs or its result is still untaken: lists `host` and opens
    /// every listed process not in `known`, up to `room` of them. Returns whether it started.
    @discardableResult
    func start(on host: any InspectionHost, known: Set<Int32>, room: Int) -> Bool {
        let start = state.withLock { state -> Bool in
            if state.running || state.found != nil { return false }
            state.running = true
            return true
        }
        guard start else { return false }
        Thread.detachNewThread { [state] in
            let found = Self.look(on: host, known: known, room: room)
            state.withLock { state in
                state.found = found
                state.running = false
            }
        }
        return true
    }

    /// Lists `host` and opens every listed process not in `known`, up to `room` of them, here.
    static func look(on host: any InspectionHost, known: Set<Int32>, room: Int) -> Found {
        var found = Found(listing: .failure(HostFailure("")), opened: [:])
        do {
            let listing = try host.inspectableProcesses()
            found.listing = .success(listing)
            // A host that attaches on request opens nothing until asked.
            let opens = !(host is any OnDemandHost)
            for process in listing.processes
            where opens && !known.contains(process.pid) && found.opened.count < room {
                do {
                    found.opened[process.pid] = .success(try host.open(process))
                } catch {
                    found.opened[process.pid] = .failure(error)
                }
            }
        } catch {
            found.listing = .failure(error)
        }
        return found
    }

    /// The result of the last look, once; nil while it runs or when none ran.
    func take() -> Found? {
        state.withLock { state in
            defer { state.found = nil }
            return state.found
        }
    }
}
