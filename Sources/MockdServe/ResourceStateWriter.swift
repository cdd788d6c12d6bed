import Dispatch
import Logging
import MockdCore
import MockdLock
import MockdSystem
import Synchronization

/// Saves resources' global state under `--state-dir`, off the request path: a request that
/// changes a copy only notes its key (`changed`); one thread of its own reads the copy as it is
/// then and writes its file atomically (a removed copy removes the file). Changes coalesce: the
/// thread waits `coalescing` (nine times the last write's time when that is longer) after the
/// first change before it writes, and a copy changed many times meanwhile is written once, as
/// it is last. `stop()` writes what is pending at once.
final class ResourceStateWriter: ResourceStateSaving {
    let folder: String
    private let logger: Logger
    private let coalescing: Duration
    private let pending = Lock<Pending>(Pending())
    /// Signalled when the first change after a write is noted, and by `stop()`.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled by `stop()`: cuts the coalescing wait short.
    private let stopping = DispatchSemaphore(value: 0)
    private let thread = Lock<JoinableThread?>(nil)

    private struct Pending {
        /// The copies to write, with the resource each belongs to (nil: only removals noted).
        var keys: [ResourceStore.Key: Resource?] = [:]
        /// `wake` was signalled for what is pending.
        var woken = false
        var stopRequested = false
    }

    init(folder: String, logger: Logger, coalescing: Duration = .milliseconds(50)) {
        self.folder = folder
        self.logger = logger
        self.coalescing = coalescing
    }

    /// The file a copy's state is saved in.
    func path(of key: ResourceStore.Key) -> String {
        folder + "/" + ResourceStateFile.name(for: key)
    }

    func changed(_ key: ResourceStore.Key, _ resource: Resource?) {
        let wakeWriter = pending.withLock { pending in
            if let resource { pending.keys[key] = resource } else if pending.keys[key] == nil { pending.keys[key] = .some(nil) }
            defer { pending.woken = true }
            return !pending.woken
        }
        if wakeWriter { wake.signal() }
    }

    /// Starts the thread that writes the copies of `store`.
    func start(_ store: ResourceStore) throws(JoinableThread.StartError) {
        let started = try JoinableThread.spawn { [self] in run(store) }.get()
        thread.withLock { $0 = started }
    }

    /// Writes what is pending now and ends the thread (after the server stopped: no request
    /// changes anything any more).
    func stop() {
        pending.withLock { $0.stopRequested = true }
        stopping.signal()
        wake.signal()
        thread.withLock { $0 }?.join()
    }

    private func run(_ store: ResourceStore) {
        var failing: Set<String> = []
        var wait = coalescing
        while true {
            wake.wait()
            if !pending.withLock({ $0.stopRequested }) {
                _ = stopping.wait(
                    timeout: .now()
                        + .nanoseconds(
                            Int(wait.components.attoseconds / 1_000_000_000)
                                + Int(wait.components.seconds) * 1_000_000_000))
            }
            let began = ContinuousClock.now
            let (batch, stop) = pending.withLock { pending in
                defer {
                    pending.keys = [:]
                    pending.woken = false
                }
                return (pending.keys, pending.stopRequested)
            }
            for (key, resource) in batch { save(key, resource, store, &failing) }
            if stop { return }
            // The writer takes a tenth of a core at most: a collection that takes 20 ms to write
            // is written every 180 ms, not every 50, so that writing a large collection does not
            // take the core the requests that grow it need.
            wait = max(coalescing, began.duration(to: .now) * 9)
        }
    }

    /// Writes `key`'s copy as it is now, or removes its file when there is none.
    private func save(_ key: ResourceStore.Key, _ resource: Resource?, _ store: ResourceStore, _ failing: inout Set<String>) {
        let path = path(of: key)
        let failure: String?
        do throws(AtomicFile.WriteError) {
            if let items = store.copy(key), let resource {
                // The bytes are made, and the copy let go, before the disk is waited for.
                try AtomicFile.write(ResourceStateFile.encode(items, of: resource, seed: key.seed), to: path, replace: true)
            } else {
                try AtomicFile.remove(path)
            }
            failure = nil
        } catch {
            failure = error.reason
        }
        // One warning while a file keeps failing, and a line when it works again.
        if let failure {
            if failing.insert(path).inserted {
                logger.warning(
                    "cannot save resource state: it is kept in memory and saved again at its next change",
                    metadata: ["mockd.file": "\(path)", "mockd.reason": "\(failure)"])
            }
        } else if failing.remove(path) != nil {
            logger.info("resource state saved again", metadata: ["mockd.file": "\(path)"])
        }
    }
}
