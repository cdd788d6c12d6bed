#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
package import Logging
package import MockdCore
import Dispatch
import MockdDisk
import MockdSystem
import MockdLock
import Synchronization

/// mockd's HTTP server: one libmicrohttpd daemon per listen address, answering every request
/// from the current snapshot. This file is the package face (start, install, shutdown); one
/// request's way is in the files beside it, in order (docs/ARCHITECTURE.md walks through it):
/// - `DaemonCallbacks`: libmicrohttpd's C entry points; `Daemon`: one `MHD_Daemon` and its options.
/// - `HTTPServer+Reading`: the head (`RequestHead`, decided once), the body (`RequestReader`,
///   `BodyBudget`), then the `MockRequest` the core resolves.
/// - `HTTPServer+Answering`: carries out the core's `Resolution`, sending now or parking
///   (`ParkingLot`: suspended requests and their timers); `HTTPServer+Admin` for admin calls.
/// - `RequestLog`: the access line and the journal entry, written as each answer is sent.
/// - `ConnectionGuard`, `BodyBudget`: what slow and greedy clients meet (head deadline and
///   eviction, body memory); the framing rules and the admin API's guard are the core's.
///
/// The snapshot and the libmicrohttpd responses built from it are swapped together by
/// `install(_:)`; a request keeps the `ServingState` it had when its head arrived until it is answered.
package final class HTTPServer: Sendable {
    package let configuration: ServerConfiguration
    package let runtime: RuntimeState
    /// Lines at info or below, the level swift-log's guide gives a library: what the server logs
    /// (a refused connection, an unknown scenario) a client can cause at will, so it is not the
    /// server's to raise to warning; the executable's level decides what is shown.
    let logger: Logger
    let current: Lock<ServingState>
    private let daemons = Lock<[Daemon]>([])
    /// Session ports by session id (`HTTPServer+Sessions`).
    let sessions = Lock<[String: SessionSlot]>([:])
    private let boundPort = Atomic<Int>(0)
    private let listenURLs = Lock<[String]>([])
    /// Requests between their request line and their completion (for graceful shutdown).
    let activeRequests = Atomic<Int>(0)
    let openConnections = Atomic<Int>(0)
    /// Head deadlines and eviction at --max-connections (see `ConnectionGuard`).
    let connections: ConnectionGuard
    /// Memory for request bodies (see `BodyBudget`).
    let bodyBudget: BodyBudget
    let startedAt = RequestState.monotonicNanoseconds()
    package let journal: RequestJournal
    let log: RequestLog
    let parking: ParkingLot
    /// Dashboards waiting for news (`GET /__mockd/events`).
    let news = NewsFeed(label: "mockd.news", cadence: .milliseconds(250))
    /// Tests waiting for their app's requests (`GET /__mockd/requests?count=N&wait=S`).
    let requestWaits = NewsFeed(label: "mockd.request-waits", cadence: .milliseconds(2))
    /// Writes the files `POST /__mockd/mocks` creates; nil: the server cannot.
    let mockWriter: (any MockFileWriting)?
    /// What a stub's body `"file"` is read from (`AdminStep.readFiles`).
    let files: any FileSource
    /// Where the admin executor carries out effects (`carryOut`): off libmicrohttpd's threads,
    /// concurrent, so a session port waiting for its requests holds up no reload.
    let adminWork = DispatchQueue(label: "mockd.admin-work", attributes: .concurrent)
    let missHandler: (any MissHandler)?
    /// Reads the configuration again for `POST /__mockd/reload` (the executable's reloader); nil: cannot reload.
    /// Weak, because the reloader holds the server: the weak reference sits on the reloader, which
    /// requests never touch. (A weak reference to the server would give it a side table and send
    /// every retain and release of it, several per request, down the runtime's slow path.)
    weak let reloads: (any Reloading)?

    /// `accessLog`: where the access line of each request is written, when not through `logger`
    /// (nil: through it, at info, as every other line, whatever its handler). The logger's level
    /// still decides whether access lines are written at all.
    package init(
        configuration: ServerConfiguration, snapshot: Snapshot, runtime: RuntimeState, logger: Logger,
        accessLog: AccessLogWriter? = nil, journal: RequestJournal = RequestJournal(), missHandler: (any MissHandler)? = nil,
        reloads: (any Reloading)? = nil, mockWriter: (any MockFileWriting)? = nil, files: any FileSource = DiskFiles()
    ) {
        self.files = files
        self.configuration = configuration
        self.runtime = runtime
        self.logger = logger
        self.journal = journal
        self.mockWriter = mockWriter
        self.log = RequestLog(
            logger: logger, accessWriter: accessLog, journal: journal, news: news, requestWaits: requestWaits,
            redactsCredentials: configuration.redactsJournalCredentials)
        self.parking = ParkingLot(limit: configuration.maxParked)
        self.missHandler = missHandler
        self.reloads = reloads
        self.bodyBudget = BodyBudget(limit: configuration.maxBodyMemoryBytes)
        self.connections = ConnectionGuard(
            headTimeoutSeconds: configuration.headTimeoutSeconds, minimumBodyRate: configuration.minimumBodyRate,
            bodyRateWindowSeconds: configuration.bodyRateWindowSeconds, logger: logger)
        self.current = Lock(
            ServingState(
                snapshot: snapshot, runtime: runtime,
                policy: Self.policy(configuration, forwardsMisses: missHandler != nil),
                extraHeaders: configuration.corsHeaders))
    }

    /// What the core weighs against the snapshot for this server.
    static func policy(_ configuration: ServerConfiguration, forwardsMisses: Bool) -> ResolutionPolicy {
        ResolutionPolicy(
            globalDelay: configuration.globalDelay, answersPreflight: configuration.cors, adminEnabled: configuration.adminEnabled,
            adminAccess: AdminAccess(allowedHosts: configuration.allowedHosts, token: configuration.adminToken),
            forwardsMisses: forwardsMisses)
    }

    /// The port actually bound (useful with port 0).
    package var port: Int { boundPort.load(ordering: .acquiring) }
    /// `http://127.0.0.1:PORT`, one per listen address.
    package var urls: [String] { listenURLs.withLock { $0 } }
    package var snapshot: Snapshot { current.withLock { $0.snapshot } }

    /// Swaps in a new snapshot. Requests already resolved finish with the old one. With
    /// `failedReload` (the last good snapshot again, after a reload that failed) every answer says so.
    package func install(_ snapshot: Snapshot, failedReload: FailedReload? = nil) {
        let next = ServingState(
            snapshot: snapshot, runtime: runtime, policy: Self.policy(configuration, forwardsMisses: missHandler != nil),
            extraHeaders: configuration.corsHeaders, failedReload: failedReload)
        current.withLock { $0 = next }
        // What requests wrote stays across a reload, unless the seed it grew from changed.
        for path in runtime.resources.adopt(snapshot.resources) {
            logger.info("resource state reset: its seed changed", metadata: ["mockd.resource": "\(path)"])
        }
        announceChange()
    }

    /// Something dashboards show changed outside a request (a reload, failed or not).
    package func announceChange() {
        runtime.noteChange()
        news.announce()
    }

    /// Binds and starts serving. Throws with the address and the reason when it cannot.
    package func start() throws(ServerError) {
        let addresses = try ListenAddress.resolve(host: configuration.host, port: configuration.port)
        var port = configuration.port
        var started: [Daemon] = []
        var urls: [String] = []
        for address in addresses {
            let bound = address.with(port: port)
            guard let daemon = Daemon(on: bound, configuration: configuration, server: self) else {
                // Before the daemons started so far stop, which can change errno.
                let code = bound.bindError() ?? errno
                let reason = String(cString: strerror(code))
                started.removeAll()
                throw .cannotListen(
                    address: bound.hostText, port: port,
                    reason: code == EADDRINUSE ? "the port is in use (another mockd? try --port 0)" : reason)
            }
            port = daemon.boundPort
            started.append(daemon)
            urls.append("http://\(bound.hostText):\(port)")
        }
        boundPort.store(port, ordering: .releasing)
        listenURLs.withLock { $0 = urls }
        daemons.withLock { $0 = started }
        connections.start()
    }

    /// Stops accepting, lets requests in flight finish (up to `timeout`), then stops. From here
    /// on every answer closes its connection, so keep-alive clients cannot hold the drain open.
    /// Blocks the calling thread: call it from a thread of its own, not the cooperative pool.
    package func shutdown(timeout: Duration = .seconds(10)) {
        let stopping =
            daemons.withLock { daemons in
                defer { daemons = [] }
                return daemons
            }
            + sessions.withLock { sessions in
                defer { sessions = [:] }
                return sessions.values.compactMap(\.daemon)
            }
        guard !stopping.isEmpty else { return }
        connections.stop()
        // The daemons must outlive the drain: each one stops when released (`Daemon.deinit`),
        // and stopping one with a connection suspended aborts the process.
        withExtendedLifetime(stopping) {
            for daemon in stopping { daemon.quiesce() }
            // Delays are cut short (the answer goes out now), stalled requests are closed, and
            // upstream calls are cancelled; none may stay suspended when the daemon stops.
            missHandler?.shutdown()
            // From here on nothing is parked; what is parked now is resumed. Work (an upstream
            // call, a reload) is answered "stopping" now rather than waited for: its end runs on
            // the concurrency pool, which a busy machine may not get to before the deadline. The
            // work's own answer, if it still comes, finds the request answered.
            for request in parking.close() {
                if request.kind == .timer {
                    parking.resume(request.state)
                } else {
                    finishWork(request.state, Self.stopping)
                }
            }
            // Dashboards' and tests' long polls are answered now, not at their timeout.
            news.flush()
            requestWaits.flush()
            drain(until: .now + timeout) { activeRequests.load(ordering: .acquiring) == 0 }
            // Whatever is still suspended (work past the deadline) is resumed before the daemons stop.
            parking.resumeAll()
        }
    }

    /// Waits, 2 ms at a time, until `drained` or the deadline (requests finishing before their
    /// daemon stops: nothing signals their end, and this thread has nothing else to do). `each`
    /// runs before each look.
    func drain(until deadline: ContinuousClock.Instant, each: () -> Void = {}, _ drained: () -> Bool) {
        while true {
            each()
            if drained() || ContinuousClock.now >= deadline { return }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
    }

    deinit {
        shutdown(timeout: .zero)
    }
}
