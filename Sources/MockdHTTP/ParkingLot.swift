import CMicroHTTPD
import MockdCore
import MockdLock
import MockdSystem
import Synchronization

/// Requests suspended in libmicrohttpd (delays, timeout faults, upstream calls, the effects of
/// admin answers, long polls, and streams between their pieces), one lot per server; the process's one timer thread resumes the timed ones (each
/// wake resumes every request due, a stream's next event costs no system call to arm). No
/// thread waits for a parked request:
/// a timer or the work resumes it. Shutdown resumes them all first: stopping a daemon with a
/// suspended connection aborts the process.
final class ParkingLot: Sendable {
    /// How long a request waits, and who resumes it.
    enum Wait: Sendable {
        /// Resumed by a timer after the duration.
        case timer(Duration)
        /// Resumed by `start`'s work (an upstream call, a reload), which must end with
        /// `HTTPServer.finishWork`; shutdown leaves it to end by itself until its deadline.
        case work(start: @Sendable () -> Void)
    }

    enum Admission { case parked, full, closed }

    struct Parked: Sendable {
        enum Kind: Sendable { case timer, work }
        let state: RequestState
        let connection: ConnectionHandle
        let kind: Kind
    }

    private struct Table: ~Copyable {
        var requests: [ObjectIdentifier: Parked] = [:]
        /// `after` bodies still waiting for their delay, by number: shutdown runs them at once.
        var waiting: [UInt64: @Sendable () -> Void] = [:]
        var nextWait: UInt64 = 0
        /// Set when shutdown begins: nothing is suspended any more (keep-alive connections can
        /// still send requests after the daemon is quiesced).
        var closed = false
    }

    private let table = Lock<Table>(Table())
    private let limit: Int
    /// Every delay and stall timer, shared by all servers of the process. A thread of its own,
    /// not Task.sleep: it fires on time even when the Swift concurrency pool is busy (a test
    /// harness); not a Dispatch timer, which costs a stream work in libdispatch's threads,
    /// a timerfd_settime and futex wakes per event. Started by the first timed wait: a server
    /// without delays never has it.
    private var timers: TimerThread { TimerThread.shared }

    init(limit: Int) {
        self.limit = limit
    }

    var count: Int { table.withLock { $0.requests.count } }

    /// Suspends the connection and starts its wait. Suspending under the table's lock: shutdown's
    /// last sweep cannot miss this request, and a resume cannot run between the insertion and
    /// the suspension. Closed for a session port that drains: its close sweeps the table once
    /// after its lifecycle says so, and nothing of it may be suspended after that sweep.
    func park(_ state: RequestState, connection: OpaquePointer, _ wait: Wait) -> Admission {
        let kind: Parked.Kind
        if case .timer = wait { kind = .timer } else { kind = .work }
        let admission = table.withLock { table -> Admission in
            if table.closed || state.sessionPort?.lifecycle.isEnding == true { return .closed }
            guard table.requests.count < limit else { return .full }
            table.requests[ObjectIdentifier(state)] = Parked(state: state, connection: ConnectionHandle(raw: connection), kind: kind)
            state.phase = .parked
            MHD_suspend_connection(connection)
            return .parked
        }
        guard admission == .parked else { return admission }
        switch wait {
        case .timer(let delay):
            timers.schedule(afterNanoseconds: Self.nanoseconds(delay)) { [self] in resume(state) }
        case .work(let start):
            start()
        }
        return .parked
    }

    /// Runs `body` once `delay` is over, on the timer thread (at once when there is no delay):
    /// work that must wait after it is done (an upstream's answer under `--delay`).
    /// While stopping, at once: a delay is cut short for work's answers as for every other.
    func after(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        guard delay > .zero else { return body() }
        let number = table.withLock { table -> UInt64? in
            if table.closed { return nil }
            table.nextWait += 1
            table.waiting[table.nextWait] = body
            return table.nextWait
        }
        guard let number else { return body() }
        timers.schedule(afterNanoseconds: Self.nanoseconds(delay)) { [self] in
            // Whoever takes it from the table runs it: this timer, or shutdown.
            table.withLock { $0.waiting.removeValue(forKey: number) }?()
        }
    }

    /// `duration` as Dispatch counts it: every delay the adapter schedules goes through here.
    static func nanoseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
    }

    /// Resumes a parked request exactly once, whoever asks first (its timer, its work, or
    /// shutdown); later calls do nothing. Taking it out of the table is the claim, and the
    /// resume happens under the same lock, so shutdown never sees a request that is claimed
    /// but still suspended.
    func resume(_ state: RequestState) {
        table.withLock { table in
            guard let request = table.requests.removeValue(forKey: ObjectIdentifier(state)) else { return }
            MHD_resume_connection(request.connection.raw)
        }
    }

    /// Resumes the parked requests `chosen` selects (a closing session port's).
    func resume(where chosen: (RequestState) -> Bool) {
        table.withLock { table in
            for (key, request) in table.requests where chosen(request.state) {
                MHD_resume_connection(request.connection.raw)
                table.requests.removeValue(forKey: key)
            }
        }
    }

    /// Shutdown begins: nothing is parked from now on. Returns what is parked now.
    func close() -> [Parked] {
        let (parked, waiting) = table.withLock { table in
            table.closed = true
            defer { table.waiting.removeAll() }
            return (Array(table.requests.values), Array(table.waiting.values))
        }
        // Outside the lock: each ends by resuming its request, which takes the lock.
        for body in waiting { timers.schedule(afterNanoseconds: 0, body) }
        return parked
    }

    /// Shutdown's last sweep: resumes whatever is still suspended (work past the deadline).
    func resumeAll() {
        table.withLock { table in
            for request in table.requests.values { MHD_resume_connection(request.connection.raw) }
            table.requests.removeAll()
        }
    }
}

/// A suspended connection. The pointer is only used for the one `MHD_resume_connection`
/// (guarded by the lot's lock), while the request is certainly alive: a suspended request
/// cannot complete.
struct ConnectionHandle: @unchecked Sendable {
    let raw: OpaquePointer
}
