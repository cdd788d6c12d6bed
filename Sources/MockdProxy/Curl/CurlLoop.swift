#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CCurl
import MockdSystem
import MockdLock
import Synchronization

/// One libcurl multi handle and the one thread that drives it: it sleeps in curl_multi_poll
/// until a socket is ready, a libcurl timer is due, or `curl_multi_wakeup` says a request was
/// queued or cancelled (or the proxy is shutting down). Every easy handle is created, used and
/// freed on that thread; other threads only touch the lock-protected inbox and wake the loop.
final class CurlLoop: Sendable {
    let library: CurlLibrary
    private let multi: MultiHandle
    private struct Inbox {
        var added: [Transfer] = []
        var cancelled: [Transfer] = []
        var stopping = false
    }
    /// Every curl_multi_wakeup happens under this lock while `stopping` is false, so the loop
    /// can free the multi handle once it has seen `stopping`.
    private let inbox = Lock(Inbox())
    private let thread = Lock<JoinableThread?>(nil)
    /// The loop thread's CPU-time clock, for tests and measurements (Linux only).
    private let cpuClock = Lock<ThreadCPUClock?>(nil)

    /// `CURLM *` is a pointer: not Sendable by itself. Used only as described above.
    private struct MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private init(library: CurlLibrary, multi: UnsafeMutableRawPointer) {
        self.library = library
        self.multi = MultiHandle(pointer: multi)
    }

    /// A multi handle and its thread, running.
    static func start(library: CurlLibrary) -> Result<CurlLoop, ProxyFailure> {
        guard let multi = ccurl_multi_init(library.api) else {
            return .failure(ProxyFailure(.failed, reason: "curl_multi_init failed"))
        }
        let loop = CurlLoop(library: library, multi: multi)
        switch JoinableThread.spawn({ loop.run() }) {
        case .success(let handle):
            loop.thread.withLock { $0 = handle }
            return .success(loop)
        case .failure(let error):
            _ = ccurl_multi_cleanup(library.api, multi)
            return .failure(ProxyFailure(.failed, reason: "cannot start the proxy thread: \(String(cString: strerror(error.code)))"))
        }
    }

    /// Queues a transfer; false when the loop is stopping (the caller answers 503).
    func submit(_ transfer: Transfer) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return false }
            inbox.added.append(transfer)
            _ = ccurl_multi_wakeup(library.api, multi.pointer)
            return true
        }
    }

    /// Asks the loop to stop a transfer it was given (it answers 503).
    func cancel(_ transfer: Transfer) {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.cancelled.append(transfer)
            _ = ccurl_multi_wakeup(library.api, multi.pointer)
        }
    }

    /// Cancels everything queued or in flight (503) and waits for the thread to end. Idempotent.
    func shutdown() {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.stopping = true
            _ = ccurl_multi_wakeup(library.api, multi.pointer)
        }
        if let handle = thread.withLock({ thread in
            defer { thread = nil }; return thread
        }) {
            handle.join()
        }
    }

    /// CPU time the loop thread has used so far; nil before it started or after it ended.
    func threadCPUTime() -> Duration? {
        cpuClock.withLock { $0?.elapsed() }
    }

    // MARK: The loop thread

    private func run() {
        if let clock = ThreadCPUClock.ofCurrentThread() { cpuClock.withLock { $0 = clock } }
        defer { cpuClock.withLock { $0 = nil } }

        let api = library.api
        var active: [UnsafeMutableRawPointer: ActiveTransfer] = [:]
        var handles: [ObjectIdentifier: UnsafeMutableRawPointer] = [:]

        func end(_ easy: UnsafeMutableRawPointer, _ result: TaskResult?) {
            guard let transfer = active.removeValue(forKey: easy) else { return }
            handles[ObjectIdentifier(transfer.transfer)] = nil
            _ = ccurl_multi_remove_handle(api, multi.pointer, easy)
            transfer.transfer.finish(result ?? transfer.result(api: api))
            transfer.release(api: api)
        }

        while true {
            let taken = inbox.withLock { inbox in
                defer { inbox.added = []; inbox.cancelled = [] }
                return (inbox.added, inbox.cancelled, inbox.stopping)
            }
            let (added, cancelled, stopping) = taken
            if stopping {
                for transfer in added { transfer.finish(.failure(Transfer.cancelledFailure)) }
                for easy in Array(active.keys) { end(easy, .failure(Transfer.cancelledFailure)) }
                break
            }
            for transfer in added {
                // Cancelled before the loop saw it (perhaps before its cancel request was queued): never started.
                if transfer.isCancelled {
                    transfer.finish(.failure(Transfer.cancelledFailure))
                    continue
                }
                switch ActiveTransfer.start(transfer, api: api) {
                case .success(let started):
                    if ccurl_multi_add_handle(api, multi.pointer, started.easy) == CURLM_OK {
                        active[started.easy] = started
                        handles[ObjectIdentifier(transfer)] = started.easy
                    } else {
                        started.release(api: api)
                        transfer.finish(.failure(ProxyFailure(.failed, reason: "curl_multi_add_handle failed")))
                    }
                case .failure(let failure):
                    transfer.finish(.failure(failure))
                }
            }
            for transfer in cancelled {
                // Not found: it already finished, or it is still to come and `isCancelled` stops it above.
                if let easy = handles[ObjectIdentifier(transfer)] { end(easy, .failure(Transfer.cancelledFailure)) }
            }

            var running: Int32 = 0
            _ = ccurl_multi_perform(api, multi.pointer, &running)
            var easy: UnsafeMutableRawPointer? = nil
            var code = CURLE_OK
            while ccurl_multi_next_done(api, multi.pointer, &easy, &code) == 1 {
                if let easy, let transfer = active[easy] {
                    transfer.code = code
                    end(easy, nil)
                }
            }
            // Sleeps until a socket is ready, libcurl's next timer (a timeout), a wakeup, or 10 s.
            _ = ccurl_multi_poll(api, multi.pointer, 10_000)
        }
        // `stopping` was seen: nobody calls curl_multi_wakeup any more.
        _ = ccurl_multi_cleanup(api, multi.pointer)
    }
}
