#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMicroHTTPD
import Dispatch
import Logging
import MockdCore
import Synchronization

/// mockd's HTTP server: one or more libmicrohttpd daemons (one per listen address) that
/// answer every request from the current snapshot.
///
/// The snapshot and the libmicrohttpd responses built from it are swapped together by
/// `install(_:)`; a request keeps the `ServingState` it started with until it is answered.
public final class HTTPServer: Sendable {
    public let configuration: ServerConfiguration
    public let runtime: RuntimeState
    let logger: Logger
    private let current: Mutex<ServingState>
    private let daemons = Mutex<[DaemonHandle]>([])
    private let boundPort = Atomic<Int>(0)
    private let listenURLs = Mutex<[String]>([])
    /// Requests between their request line and their completion (for graceful shutdown).
    let activeRequests = Atomic<Int>(0)
    let openConnections = Atomic<Int>(0)
    /// Head deadlines and eviction at --max-connections (see `ConnectionGuard`).
    let connections: ConnectionGuard
    /// Memory for request bodies (see `BodyBudget`).
    let bodyBudget: BodyBudget
    /// Set when the logger is mockd's own handler: access lines skip swift-log's event machinery
    /// (the same line, at a third of the cost per request).
    private let accessLog: AccessLogWriter?
    private let startedAt = RequestState.monotonicNanoseconds()
    private let admin = AdminAPI()
    public let journal: RequestJournal
    let missHandler: (any MissHandler)?
    /// Reads the configuration again (files and routes); nil when the server cannot reload.
    private let loader: (@Sendable () -> MockDataLoader.Result)?
    private let systemd: SystemdNotifier
    /// One reload at a time; the last report, for `GET /__mockd/health`.
    private let reloading = Mutex<Void>(())
    private let lastReport = Mutex<ReloadReport?>(nil)
    /// Requests suspended in libmicrohttpd right now, so shutdown can resume them all first
    /// (stopping a daemon with a suspended connection aborts the process).
    private let parked = Mutex<ParkedTable>(ParkedTable())

    struct ParkedTable: ~Copyable {
        var requests: [ObjectIdentifier: ParkedRequest] = [:]
        /// Set when shutdown begins: nothing is suspended any more (keep-alive connections can
        /// still send requests after the daemon is quiesced).
        var closed = false
    }

    public init(configuration: ServerConfiguration, snapshot: Snapshot, runtime: RuntimeState, logger: Logger,
                journal: RequestJournal = RequestJournal(), missHandler: (any MissHandler)? = nil,
                loader: (@Sendable () -> MockDataLoader.Result)? = nil, systemd: SystemdNotifier = SystemdNotifier(socketPath: nil)) {
        self.configuration = configuration
        self.runtime = runtime
        self.logger = logger
        if let handler = logger.handler as? MockdLogHandler, handler.metadata.isEmpty {
            self.accessLog = handler.accessWriter
        } else {
            self.accessLog = nil
        }
        self.journal = journal
        self.missHandler = missHandler
        self.loader = loader
        self.systemd = systemd
        self.bodyBudget = BodyBudget(limit: configuration.maxBodyMemoryBytes)
        self.connections = ConnectionGuard(headTimeoutSeconds: configuration.headTimeoutSeconds, logger: logger)
        self.current = Mutex(ServingState(snapshot: snapshot, runtime: runtime, globalDelay: configuration.globalDelay,
                                  extraHeaders: configuration.corsHeaders))
    }

    /// The port actually bound (useful with port 0).
    public var port: Int { boundPort.load(ordering: .acquiring) }
    /// `http://127.0.0.1:PORT`, one per listen address.
    public var urls: [String] { listenURLs.withLock { $0 } }
    public var snapshot: Snapshot { current.withLock { $0.snapshot } }

    /// Swaps in a new snapshot. Requests already resolved finish with the old one.
    public func install(_ snapshot: Snapshot) {
        let next = ServingState(snapshot: snapshot, runtime: runtime, globalDelay: configuration.globalDelay,
                                  extraHeaders: configuration.corsHeaders)
        current.withLock { $0 = next }
    }

    /// Reads files and routes again and serves them if they are valid; otherwise keeps serving
    /// the last good configuration. Requests already resolved finish on the old one.
    @discardableResult
    public func reload(trigger: String) -> ReloadReport {
        reloading.withLock { _ in
            let started = RequestState.monotonicNanoseconds()
            systemd.notify("RELOADING=1\nMONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())")
            defer { systemd.notify("READY=1\nSTATUS=\(statusLine)") }
            guard let loader else {
                return ReloadReport(time: Self.now(), ok: false, files: 0, routes: 0, errors: ["reload is not available"], durationMilliseconds: 0, trigger: trigger)
            }
            let result = loader()
            let elapsed = Double(RequestState.monotonicNanoseconds() - started) / 1e6
            let report: ReloadReport
            if let snapshot = result.snapshot {
                install(snapshot)
                report = ReloadReport(time: Self.now(), ok: true, files: snapshot.fileCount, routes: snapshot.routes.count,
                                      errors: [], durationMilliseconds: elapsed, trigger: trigger)
                logger.info("reloaded", metadata: ["trigger": "\(trigger)", "files": "\(snapshot.fileCount)",
                                                   "routes": "\(snapshot.routes.count)", "durationMs": "\(Int(elapsed))"])
                for warning in result.diagnostics { logger.warning("\(warning)") }
            } else {
                let errors = result.diagnostics.filter { $0.severity == .error }.map(\.description)
                report = ReloadReport(time: Self.now(), ok: false, files: snapshot.fileCount, routes: snapshot.routes.count,
                                      errors: errors, durationMilliseconds: elapsed, trigger: trigger)
                logger.error("reload failed; still serving the last good configuration\n\(ConfigurationError(result.diagnostics))")
            }
            lastReport.withLock { $0 = report }
            return report
        }
    }

    /// Read without waiting for a reload in progress (health checks must not stall).
    public var lastReload: ReloadReport? { lastReport.withLock { $0 } }

    /// For systemd's STATUS= line.
    public var statusLine: String {
        let snapshot = self.snapshot
        return "serving \(snapshot.fileCount) files and \(snapshot.routes.count) routes on \(urls.joined(separator: " "))"
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Requests parked right now (delays, timeout faults, upstream calls).
    public var parkedCount: Int { parked.withLock { $0.requests.count } }

    /// Binds and starts serving. Throws with the address and the reason when it cannot.
    public func start() throws(ServerError) {
        let addresses = try ListenAddress.resolve(host: configuration.host, port: configuration.port)
        var port = configuration.port
        var started: [DaemonHandle] = []
        var urls: [String] = []
        for address in addresses {
            let bound = address.with(port: port)
            guard let handle = startDaemon(on: bound) else {
                let code = errno  // before MHD_stop_daemon below can change it
                let reason = String(cString: strerror(code))
                for handle in started { MHD_stop_daemon(handle.raw) }
                throw .cannotListen(address: bound.hostText, port: port,
                                    reason: code == EADDRINUSE ? "the port is in use (another mockd? try --port 0)" : reason)
            }
            port = Int(cmhd_daemon_bound_port(handle.raw))
            started.append(handle)
            urls.append("http://\(bound.hostText):\(port)")
        }
        boundPort.store(port, ordering: .releasing)
        listenURLs.withLock { $0 = urls }
        daemons.withLock { $0 = started }
        connections.start()
    }

    /// Stops accepting, lets requests in flight finish (up to `timeout`), then stops.
    public func shutdown(timeout: Duration = .seconds(10)) {
        let handles = daemons.withLock { daemons in
            defer { daemons = [] }
            return daemons
        }
        guard !handles.isEmpty else { return }
        connections.stop()
        let listenSockets = handles.map { MHD_quiesce_daemon($0.raw) }
        // Delays are cut short (the answer goes out now), stalled requests are closed, and
        // upstream calls are cancelled; none may stay suspended when the daemon stops.
        missHandler?.shutdown()
        // From here on nothing is parked; what is parked now is resumed. Upstream calls are
        // left to end by themselves: the miss handler answers them at once now.
        let parkedNow = parked.withLock { table in
            table.closed = true
            return Array(table.requests.values)
        }
        for request in parkedNow where request.kind != .upstream {
            resume(request.state)
        }
        let deadline = ContinuousClock.now + timeout
        while activeRequests.load(ordering: .acquiring) > 0 && ContinuousClock.now < deadline {
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
        // Whatever is still suspended (an upstream call past the deadline) is resumed under the
        // same lock that suspends and resumes: MHD_stop_daemon aborts on a suspended connection.
        parked.withLock { table in
            for request in table.requests.values { MHD_resume_connection(request.connection.raw) }
            table.requests.removeAll()
        }
        for handle in handles { MHD_stop_daemon(handle.raw) }
        // libmicrohttpd wants the quiesced listen socket closed only after the daemon stopped.
        for socket in listenSockets where socket >= 0 { close(socket) }
    }

    deinit {
        shutdown(timeout: .zero)
    }

    // MARK: - libmicrohttpd

    private func startDaemon(on address: ListenAddress) -> DaemonHandle? {
        var flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_USE_TURBO.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var storage = address.storage
        let context = Unmanaged.passUnretained(self).toOpaque()
        return withUnsafeMutablePointer(to: &storage) { addressPointer -> DaemonHandle? in
            var options: [MHD_OptionItem] = [
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(addressPointer)),
                // Our own limit refuses connections in the accept policy with a log line; libmicrohttpd's
                // (which only stops accepting, leaving clients waiting) sits above it.
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.maxConnections + 64, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.maxHeaderBytes, ptr_value: nil),
                MHD_OptionItem(option: .LISTEN_BACKLOG_SIZE, value: 1024, ptr_value: nil),
            ]
            if configuration.threads > 1 {
                options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
            }
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            let raw = options.withUnsafeMutableBufferPointer { buffer in
                cmhd_start_daemon(flags,
                                  accessHandler, context,
                                  requestCompleted, context,
                                  requestStarted, context,
                                  acceptPolicy, context,
                                  connectionNotified, context,
                                  libraryLog, context,
                                  buffer.baseAddress)
            }
            return raw.map(DaemonHandle.init)
        }
    }

    /// The access handler's work for one call (see `accessHandler` for the call pattern).
    func handle(connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>?,
                uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>, state: RequestState) -> MHD_Result {
        switch state.phase {
        case .new:
            // First call: headers only. Refuse here (413, 400); answer anything else on a later
            // call, or libmicrohttpd closes the connection after the response.
            state.phase = .receiving
            // The head-timeout tick closed this connection as the head completed: too late.
            guard connections.headComplete(connection, now: state.startNanoseconds) else { return .NO }
            if state.badPercentEncoding {
                return refuse(connection, method: method, url: url, state: state, status: 400,
                              reason: "the URL has an invalid percent-encoding (% must be followed by two hex digits, not %00)")
            }
            if let refusal = checkHead(connection: connection, method: method, version: version, state: state) {
                return refuse(connection, method: method, url: url, state: state, status: refusal.status, reason: refusal.reason)
            }
            state.bodyKeepLimit = bodyKeepLimit(url: url, state: state)
            if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
               let bytes = Int(String(cString: length)), bytes > configuration.maxBodyBytes {
                return refuse(connection, method: method, url: url, state: state, status: 413,
                              reason: "the body is \(bytes) bytes; the limit is \(configuration.maxBodyBytes) (--max-body-bytes)")
            }
            return .YES
        case .receiving:
            let size = uploadDataSize.pointee
            if size != 0 {
                if !state.bodyTooLarge, let uploadData {
                    if state.bodyBytesSeen + size > configuration.maxBodyBytes {
                        state.bodyTooLarge = true
                        state.body = []
                    } else {
                        receive(uploadData, count: size, state: state)
                    }
                }
                uploadDataSize.pointee = 0
                return .YES
            }
            if state.bodyTooLarge {
                return refuse(connection, method: method, url: url, state: state, status: 413,
                              reason: "the chunked body exceeded \(configuration.maxBodyBytes) bytes (--max-body-bytes)")
            }
            if state.overBudget {
                state.phase = .answered
                let response = bodyBudgetRefusal
                finish(MockRequest(method: Self.method(method), path: String(cString: url)), status: 503, source: response.source, scenario: "", state: state)
                return queue(built: response, on: connection)
            }
            return answer(connection, url: url, method: method, state: state)
        case .parked:
            // Resumed: send what the timer or the upstream call left.
            guard let pending = state.pending.withLock({ $0 }) else { return .NO }
            state.phase = .answered
            switch pending.action {
            case .close:
                finish(pending.request, status: 0, source: "closed: timeout fault", scenario: "", state: state)
                return .NO
            case .respond(let answer, let serving):
                return deliver(answer, serving: serving, request: pending.request, connection: connection, state: state)
            }
        case .answered:
            return .YES
        }
    }

    private func answer(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, state: RequestState) -> MHD_Result {
        state.phase = .answered
        guard var path = String(validatingCString: url) else {
            return refuse(connection, method: method, url: url, state: state, status: 400,
                          reason: "the path is not UTF-8 once percent-decoded")
        }
        path = Self.originForm(path)
        guard path.utf8.first == UInt8(ascii: "/") else {
            return refuse(connection, method: method, url: url, state: state, status: 400,
                          reason: "the request target must be a path starting with '/' (or an absolute URL)")
        }
        let request = MockRequest(method: Self.method(method), path: path,
                                  query: state.rawQuery.isEmpty ? [] : Self.queryArguments(of: connection), rawQuery: state.rawQuery,
                                  headers: state.headers ?? Self.headers(of: connection), body: state.body,
                                  rawPath: state.rawPath.map(Self.originForm))
        let serving = current.withLock { $0 }
        if configuration.cors, request.method == "OPTIONS", !AdminAPI.isAdminPath(path), request.headers.first(named: "Access-Control-Request-Method") != nil {
            // A browser's preflight: allow whatever it asks for.
            var response = BuiltResponse(status: 204, source: "cors preflight")
            response.headers = [
                HTTPHeader("Access-Control-Allow-Methods", request.headers.first(named: "Access-Control-Request-Method") ?? "*"),
                HTTPHeader("Access-Control-Allow-Headers", request.headers.first(named: "Access-Control-Request-Headers") ?? "*"),
                HTTPHeader("Access-Control-Max-Age", "600"),
            ]
            finish(request, status: 204, source: response.source, scenario: "", state: state)
            return queue(built: response, on: connection)
        }
        if configuration.adminEnabled && AdminAPI.isAdminPath(path) {
            if AdminAPI.readsFiles(request) {
                // Reading 10,000 files takes a few hundred ms: not on a libmicrohttpd thread,
                // whose other connections would wait.
                return park(connection, state: state, request: request, kind: .upstream) { [self] in
                    DispatchQueue.global().async { [self] in
                        let response = adminResponse(request, serving: serving)
                        state.pending.withLock { $0 = .init(action: .respond(Answer(.built(response), scenario: ""), serving), request: request) }
                        resume(state)
                    }
                }
            }
            let response = adminResponse(request, serving: serving)
            finish(request, status: response.status, source: response.source, scenario: "", state: state)
            return queue(built: response, on: connection)
        }
        let answer = serving.resolver.resolve(request)
        if answer.isMiss, let missHandler {
            return park(connection, state: state, request: request, kind: .upstream) { [self] in
                Task {
                    let response = await missHandler.answer(request)
                    let relayed = Answer(.built(response), scenario: answer.scenario)
                    state.pending.withLock { $0 = .init(action: .respond(relayed, serving), request: request) }
                    resume(state)
                }
            }
        }
        if answer.fault == .timeout {
            let limit = configuration.stallLimit
            state.pending.withLock { $0 = .init(action: .close, request: request) }
            return park(connection, state: state, request: request, kind: .stall, after: limit)
        }
        if answer.delay > .zero {
            let delay = answer.delay
            state.pending.withLock { $0 = .init(action: .respond(answer, serving), request: request) }
            return park(connection, state: state, request: request, kind: .delay, after: delay)
        }
        return deliver(answer, serving: serving, request: request, connection: connection, state: state)
    }

    /// Sends an answer (or breaks the connection, for faults) and logs it.
    private func deliver(_ answer: Answer, serving: ServingState, request: MockRequest, connection: OpaquePointer, state: RequestState) -> MHD_Result {
        switch answer.fault {
        case .reset?:
            finish(request, status: 0, source: answer.source + " (fault reset)", scenario: answer.scenario, state: state)
            Self.resetOnClose(connection)
            return .NO
        case .truncated?:
            finish(request, status: answer.status, source: answer.source + " (fault truncated)", scenario: answer.scenario, state: state)
            guard let response = MHDResponse(truncating: answer, extraHeaders: configuration.corsHeaders) else { return .NO }
            return withExtendedLifetime(response) { MHD_queue_response(connection, UInt32(answer.status), response.raw) }
        case .timeout?, nil:
            break
        }
        finish(request, status: answer.status, source: answer.source, scenario: answer.scenario, state: state)
        switch answer.response {
        case .prepared(let prepared):
            return MHD_queue_response(connection, UInt32(prepared.status), serving.rawResponses[prepared.id])
        case .built(let built):
            let extraHeaders = extraHeaders(for: built)
            if let slot = built.reuse, let response = slot.value(extraHeaders: extraHeaders, { MHDResponse(built: built, extraHeaders: extraHeaders) }) {
                return withExtendedLifetime(response) { MHD_queue_response(connection, UInt32(built.status), response.raw) }
            }
            return queue(built: built, on: connection)
        }
    }

    /// Suspends the connection and resumes it after `delay`, from a timer: no thread waits.
    private func park(_ connection: OpaquePointer, state: RequestState, request: MockRequest, kind: ParkedRequest.Kind,
                      after delay: Duration) -> MHD_Result {
        park(connection, state: state, request: request, kind: kind) { [self] in
            // A Dispatch timer, not Task.sleep: it fires on time even when the Swift
            // concurrency pool is busy (the proxy, or a test harness blocking its threads).
            let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
            Self.timers.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in resume(state) }
        }
    }

    /// One serial queue for every delay and stall timer.
    private static let timers = DispatchQueue(label: "mockd.timers")

    /// Suspends the connection and runs `work`, which must end by calling `resume(state)`
    /// (directly or from a timer or a task it starts).
    private func park(_ connection: OpaquePointer, state: RequestState, request: MockRequest, kind: ParkedRequest.Kind,
                      _ work: @escaping @Sendable () -> Void) -> MHD_Result {
        enum Admission { case parked, full, closed }
        // Suspending under the table's lock: shutdown's last sweep cannot miss this request, and
        // a resume cannot run between the insertion and the suspension.
        let admission = parked.withLock { table -> Admission in
            if table.closed { return .closed }
            guard table.requests.count < configuration.maxParked else { return .full }
            table.requests[ObjectIdentifier(state)] = ParkedRequest(state: state, connection: ConnectionHandle(raw: connection), kind: kind)
            state.phase = .parked
            MHD_suspend_connection(connection)
            return .parked
        }
        switch admission {
        case .parked:
            work()
            return .YES
        case .full:
            let response = BuiltResponse.json(status: 503, #"{"error":"too many parked requests (--max-parked \#(configuration.maxParked)): delays, timeout faults and upstream calls wait in parallel up to that limit"}"# + "\n", source: "refused: too many parked requests")
            finish(request, status: 503, source: response.source, scenario: "", state: state)
            return queue(built: response, on: connection)
        case .closed:
            // mockd is stopping: a delay is cut short, a stall is closed, an upstream call is refused.
            let pending = state.pending.withLock { $0 }
            if kind == .delay, let pending, case .respond(let answer, let serving) = pending.action {
                return deliver(answer, serving: serving, request: request, connection: connection, state: state)
            }
            if kind == .stall {
                finish(request, status: 0, source: "closed: stopping", scenario: "", state: state)
                return .NO
            }
            var response = BuiltResponse.json(status: 503, #"{"error":"mockd is stopping"}"# + "\n", source: "refused: stopping")
            response.headers.append(HTTPHeader("Connection", "close"))
            finish(request, status: 503, source: response.source, scenario: "", state: state)
            return queue(built: response, on: connection)
        }
    }

    /// Resumes a parked request exactly once, whoever asks first (its timer, its upstream
    /// call, or shutdown); later calls do nothing. Taking it out of the table is the claim,
    /// and the resume happens under the same lock, so shutdown never sees a request that is
    /// claimed but still suspended.
    func resume(_ state: RequestState) {
        parked.withLock { table in
            guard let request = table.requests.removeValue(forKey: ObjectIdentifier(state)) else { return }
            MHD_resume_connection(request.connection.raw)
        }
    }

    /// `GET http://host:port/path` (absolute form, as proxies send it) → `/path`.
    static func originForm(_ path: String) -> String {
        guard path.utf8.first == UInt8(ascii: "h"), path.hasPrefix("http://") || path.hasPrefix("https://") else { return path }
        let afterScheme = path.drop { $0 != "/" }.dropFirst(2)
        guard let slash = afterScheme.firstIndex(of: "/") else { return "/" }
        return String(afterScheme[slash...])
    }

    /// With TURBO mode libmicrohttpd skips its orderly shutdown, so a zero linger turns the
    /// close into a reset (RST), which is what a dropped connection looks like to a client.
    static func resetOnClose(_ connection: OpaquePointer) {
        let fd = cmhd_connection_fd(connection)
        guard fd >= 0 else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    private func adminResponse(_ request: MockRequest, serving: ServingState) -> BuiltResponse {
        if let refusal = adminHostRefusal(request) { return refusal }
        if let token = configuration.adminToken, request.headers.first(named: "Authorization") != "Bearer \(token)" {
            var response = BuiltResponse.json(status: 401, #"{"error":"the admin API needs Authorization: Bearer <token> (--admin-token)"}"# + "\n", source: "admin")
            response.headers.append(HTTPHeader("WWW-Authenticate", #"Bearer realm="mockd admin""#))
            return response
        }
        let uptime = Double(RequestState.monotonicNanoseconds() - startedAt) / 1e9
        let context = AdminAPI.Context(snapshot: serving.snapshot, state: runtime, journal: journal, uptimeSeconds: uptime,
                                       reload: { [self] in reload(trigger: "admin") }, lastReload: lastReload)
        return admin.handle(request, context: context)
    }

    private func queue(built: BuiltResponse, on connection: OpaquePointer) -> MHD_Result {
        guard let response = MHDResponse(built: built, extraHeaders: extraHeaders(for: built)) else { return .NO }
        // libmicrohttpd takes its own reference while queueing; ours must last until then.
        return withExtendedLifetime(response) { MHD_queue_response(connection, UInt32(built.status), response.raw) }
    }

    /// Answers a bad request at once, with a JSON reason and `Connection: close`.
    private func refuse(_ connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>,
                        state: RequestState, status: Int, reason: String) -> MHD_Result {
        state.phase = .answered
        var body = BuiltResponse.json(status: status, #"{"error":\#(JSONText.quoted(reason))}"# + "\n", source: "refused")
        body.headers.append(HTTPHeader("Connection", "close"))
        let result = queue(built: body, on: connection)
        let request = MockRequest(method: String(cString: method), path: String(decoding: UnsafeRawBufferPointer(start: url, count: strlen(url)), as: UTF8.self))
        finish(request, status: status, source: "refused: \(reason)", scenario: "", state: state)
        return result
    }

    /// The access-log line and the journal entry for a request that is done.
    private func finish(_ request: MockRequest, status: Int, source: String, scenario: String, state: RequestState) {
        let micros = (RequestState.monotonicNanoseconds() - state.startNanoseconds) / 1000
        if logger.logLevel <= .info {
            // One metadata value carrying typed fields: the handler lays it out as text or JSON,
            // and a request costs one small dictionary instead of five hashed keys.
            let record = AccessRecord(method: request.method, path: request.path, status: status, source: source, durationMicroseconds: micros)
            if let accessLog {
                accessLog.write(record)
            } else {
                logger.info("request", metadata: [AccessRecord.metadataKey: .stringConvertible(record)])
            }
        }
        guard journal.isEnabled, !AdminAPI.isAdminPath(request.path) else { return }
        let truncated = request.body.count > journal.bodyLimit
        journal.append(RequestJournal.Entry(
            time: Self.now(), method: request.method, path: request.path, query: request.rawQuery, headers: journalHeaders(request.headers),
            body: truncated ? Array(request.body.prefix(journal.bodyLimit)) : request.body, bodyTruncated: truncated,
            scenario: scenario, session: request.session, source: source, status: status, durationMicroseconds: micros))
    }

    /// The request's method; the common ones as literals, without decoding the C string.
    static func method(_ raw: UnsafePointer<CChar>) -> String {
        // Byte by byte, stopping at the first mismatch: never past the terminating NUL.
        func matches(_ name: StaticString) -> Bool {
            let count = name.utf8CodeUnitCount
            for index in 0..<count where UInt8(bitPattern: raw[index]) != name.utf8Start[index] { return false }
            return raw[count] == 0
        }
        if matches("GET") { return "GET" }
        if matches("POST") { return "POST" }
        if matches("HEAD") { return "HEAD" }
        return String(cString: raw)
    }

    /// Request headers, in order.
    static func headers(of connection: OpaquePointer) -> [HTTPHeader] {
        var headers: [HTTPHeader] = []
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, collectValue, UnsafeMutableRawPointer(pointer))
        }
        return headers
    }

    /// Decoded query arguments, in order (a name with no `=` has a nil value).
    static func queryArguments(of connection: OpaquePointer) -> [(name: String, value: String?)] {
        var arguments: [(name: String, value: String?)] = []
        withUnsafeMutablePointer(to: &arguments) { pointer in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectArgument, UnsafeMutableRawPointer(pointer))
        }
        return arguments
    }
}

/// The libmicrohttpd objects and Swift values that serve one snapshot.
final class ServingState: Sendable {
    let snapshot: Snapshot
    let resolver: Resolver
    /// libmicrohttpd's responses by `PreparedResponse.id`, built once per snapshot and
    /// destroyed with it. Plain pointers in one dense array, not an object each: a request
    /// reads one without touching a Swift object (or its reference count) among 10,000 cold
    /// ones, and 10,000 files cost no 10,000 extra allocations.
    nonisolated(unsafe) let rawResponses: [OpaquePointer]

    init(snapshot: Snapshot, runtime: RuntimeState, globalDelay: Duration, extraHeaders: [HTTPHeader]) {
        self.snapshot = snapshot
        self.resolver = Resolver(snapshot: snapshot, state: runtime, globalDelay: globalDelay)
        self.rawResponses = snapshot.preparedResponses.map { prepared in
            guard let raw = MHDResponse.make(prepared: prepared, extraHeaders: extraHeaders) else {
                fatalError("libmicrohttpd could not create a response for \(prepared.source) (out of memory)")
            }
            return raw
        }
    }

    deinit {
        // Drops mockd's reference to each; requests still sending one keep theirs.
        for raw in rawResponses { MHD_destroy_response(raw) }
    }
}

/// A started daemon. The pointer is only used to stop it, from one thread.
struct DaemonHandle: @unchecked Sendable {
    let raw: OpaquePointer
}

/// A suspended connection. The pointer is only used for the one `MHD_resume_connection`
/// (guarded by the parked table's lock), while the request is certainly alive: a
/// suspended request cannot complete.
struct ConnectionHandle: @unchecked Sendable {
    let raw: OpaquePointer
}

struct ParkedRequest: Sendable {
    enum Kind: Sendable {
        /// Answers when its delay is over (or at once, at shutdown).
        case delay
        /// A timeout fault: closed without an answer after the stall limit (or at shutdown).
        case stall
        /// Waiting for the upstream (`--proxy`).
        case upstream
    }

    let state: RequestState
    let connection: ConnectionHandle
    let kind: Kind
}

// MARK: - C callbacks (file scope, non-capturing; context arrives as the server, unretained)

private func server(_ context: UnsafeMutableRawPointer?) -> HTTPServer {
    Unmanaged<HTTPServer>.fromOpaque(context!).takeUnretainedValue()
}

/// Called once per request, right after the request line; its result becomes the request's context.
private func requestStarted(_ context: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    let server = server(context)
    server.activeRequests.add(1, ordering: .relaxed)
    if let connection { server.connections.requestLine(connection, now: RequestState.monotonicNanoseconds()) }
    return Unmanaged.passRetained(RequestState(rawURI: uri)).toOpaque()
}

/// libmicrohttpd's call pattern: once after the headers, once per body chunk, once more at the end.
private func accessHandler(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
                           _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                           _ uploadDataSize: UnsafeMutablePointer<Int>?,
                           _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let connection, let url, let method, let uploadDataSize, let raw = requestContext?.pointee else { return .NO }
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    return server(context).handle(connection: connection, url: url, method: method, version: version, uploadData: uploadData,
                                  uploadDataSize: uploadDataSize, state: state)
}

private func requestCompleted(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                              _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode) {
    guard let requestContext, let raw = requestContext.pointee else { return }
    server(context).bodyBudget.release(Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue().heldBodyBytes)
    Unmanaged<RequestState>.fromOpaque(raw).release()
    requestContext.pointee = nil
    let server = server(context)
    server.activeRequests.subtract(1, ordering: .releasing)
    if let connection { server.connections.requestDone(connection, now: RequestState.monotonicNanoseconds()) }
}

private func acceptPolicy(_ context: UnsafeMutableRawPointer?, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> MHD_Result {
    let server = server(context)
    let open = server.openConnections.load(ordering: .relaxed)
    if open >= server.configuration.maxConnections {
        // Make room by closing a slow or idle client; refuse only when every connection is busy.
        let now = RequestState.monotonicNanoseconds()
        if server.connections.evictOne(now: now) {
            if let line = server.connections.evictions.record("connection limit \(server.configuration.maxConnections) (--max-connections) reached: closed the connection waiting longest for its request head, or idle longest", now: now) {
                server.logger.warning("\(line)")
            }
            return .YES
        }
        if let line = server.connections.refusals.record("connection refused: \(open) connections open and all busy, the limit is \(server.configuration.maxConnections) (--max-connections)", now: now) {
            server.logger.warning("\(line)")
        }
        return .NO
    }
    return .YES
}

private func connectionNotified(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                                _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode) {
    let server = server(context)
    if code == .CONNECTION_NOTIFY_STARTED {
        server.openConnections.add(1, ordering: .relaxed)
        if let connection { server.connections.opened(connection, socketContext: socketContext, now: RequestState.monotonicNanoseconds()) }
    } else {
        server.connections.closed(socketContext: socketContext)
        server.openConnections.subtract(1, ordering: .relaxed)
    }
}

private func collectValue(_ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
                          _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let context, let key else { return .YES }
    context.assumingMemoryBound(to: [HTTPHeader].self).pointee
        .append(HTTPHeader(String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

private func collectArgument(_ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
                             _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let context, let key else { return .YES }
    context.assumingMemoryBound(to: [(name: String, value: String?)].self).pointee
        .append((String(cString: key), value.map { String(cString: $0) }))
    return .YES
}

/// libmicrohttpd's own messages (connection errors, 414/431 it answered itself) go to the log.
private func libraryLog(_ context: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    var message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while message.last?.isNewline == true { message.removeLast() }
    // Returning MHD_NO is how mockd drops a connection on purpose (faults): not news.
    if message.hasPrefix("Application reported internal error") {
        server(context).logger.debug("libmicrohttpd: \(message)")
    } else {
        server(context).logger.notice("libmicrohttpd: \(message)")
    }
}
