import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import MockdCore
import Synchronization

/// Forwards a request nothing matched to the `--proxy` upstream and relays its answer.
///
/// One URLSession for the proxy's life (connections are reused). Redirects are relayed, not
/// followed. Every failure becomes a JSON answer (502/503/504) saying which and why; `forward`
/// never throws and always returns within `configuration.timeout` (plus scheduling slack).
public final class UpstreamProxy: Sendable {
    public let configuration: ProxyConfiguration
    let logger: Logger
    private let session: URLSession
    private let tasks: TaskTable
    private let prefix: String

    public init(configuration: ProxyConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.prefix = configuration.upstreamPrefix
        let tasks = TaskTable(maxResponseBytes: configuration.maxResponseBytes, timeout: configuration.timeout)
        self.tasks = tasks

        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // Our own deadline (see `forward`) is exact; URLSession's (whole seconds on Linux) is a backstop behind it.
        let seconds = max(1, Self.seconds(configuration.timeout).rounded(.up) + 1)
        sessionConfiguration.timeoutIntervalForRequest = seconds
        sessionConfiguration.timeoutIntervalForResource = seconds
        // A proxy passes cookies and caching headers through; it keeps no state of its own.
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        // Slow upstream calls must not queue behind each other: each waits on its own connection.
        sessionConfiguration.httpMaximumConnectionsPerHost = 256
        self.session = URLSession(configuration: sessionConfiguration, delegate: SessionDelegate(tasks: tasks), delegateQueue: nil)
    }

    /// Cancels requests in flight (they answer 503) and releases the session. Call once, at shutdown.
    public func shutdown() {
        session.invalidateAndCancel()
    }

    deinit {
        // The session holds its delegate until it is invalidated.
        session.invalidateAndCancel()
    }

    /// Sends `request` upstream and returns what to answer the client. Safe to call from any
    /// thread or task, concurrently; cancelling the calling task cancels the upstream request.
    public func forward(_ request: MockRequest) async -> ProxyOutcome {
        let started = ContinuousClock.now
        let upstreamRequest: URLRequest
        switch makeRequest(request) {
        case .success(let built): upstreamRequest = built
        case .failure(let failure): return failed(failure, request: request, after: .zero)
        }

        let task = session.dataTask(with: upstreamRequest)
        let id = task.taskIdentifier
        let result: TaskResult = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<TaskResult, Never>) in
                guard tasks.register(id, task: task, continuation: continuation) else { return }
                let timeout = configuration.timeout
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Self.nanoseconds(timeout))) { [tasks] in
                    tasks.expire(id)
                }
                task.resume()
            }
        } onCancel: { [tasks] in
            tasks.cancel(id)
        }
        tasks.forget(id)
        let elapsed = ContinuousClock.now - started

        switch result {
        case .failure(let failure):
            return failed(failure, request: request, after: elapsed)
        case .answer(let status, let headers, let body):
            let relayed = BuiltResponse(status: status, headers: ForwardingRules.relayedResponseHeaders(headers),
                                        body: body, source: "proxy")
            logger.debug("proxied", metadata: [
                "method": .string(request.method), "path": .string(request.path), "status": .stringConvertible(status),
                "upstreamMs": .string(Self.milliseconds(elapsed)), "bytes": .stringConvertible(body.count),
            ])
            return ProxyOutcome(response: relayed, upstreamDuration: elapsed, failure: nil)
        }
    }

    // MARK: - Building the upstream request

    func makeRequest(_ request: MockRequest) -> Result<URLRequest, ProxyFailure> {
        var text = prefix + ForwardingRules.encodePath(request.path)
        if !request.rawQuery.isEmpty { text += "?" + ForwardingRules.sanitizeQuery(request.rawQuery) }
        guard let url = URL(string: text) else {
            return .failure(ProxyFailure(.badRequest, reason: "cannot build an upstream URL from '\(text)'"))
        }
        var upstream = URLRequest(url: url)
        upstream.httpMethod = request.method
        upstream.timeoutInterval = max(1, Self.seconds(configuration.timeout).rounded(.up) + 1)
        for header in ForwardingRules.forwardedRequestHeaders(request.headers) {
            upstream.setValue(header.value, forHTTPHeaderField: header.name)
        }
        if !request.body.isEmpty {
            // The Linux URLSession refuses a GET with a body, and a HEAD body means nothing.
            if request.method == "GET" || request.method == "HEAD" {
                logger.warning("proxy: dropped the body of a \(request.method) request (\(request.body.count) bytes): the HTTP client cannot send one",
                               metadata: ["path": .string(request.path)])
            } else {
                upstream.httpBody = Data(request.body)
            }
        }
        return .success(upstream)
    }

    // MARK: - Failures

    private func failed(_ failure: ProxyFailure, request: MockRequest, after elapsed: Duration) -> ProxyOutcome {
        logger.warning("proxy: \(failure.kind.rawValue)", metadata: [
            "method": .string(request.method), "path": .string(request.path),
            "upstream": .string(prefix), "reason": .string(failure.reason), "upstreamMs": .string(Self.milliseconds(elapsed)),
        ])
        let body = JSONValue.object([
            ("error", .string(failure.kind.rawValue)),
            ("upstream", .string(prefix)),
            ("reason", .string(failure.reason)),
        ]).prettyPrinted + "\n"
        let response = BuiltResponse(status: failure.status, headers: [HTTPHeader("Content-Type", ContentType.json)],
                                     body: Array(body.utf8), source: "proxy error")
        return ProxyOutcome(response: response, upstreamDuration: elapsed, failure: failure)
    }

    static func classify(_ error: any Error, timeout: Duration) -> ProxyFailure {
        let nsError = error as NSError
        let reason = (nsError.userInfo[NSLocalizedDescriptionKey] as? String) ?? nsError.localizedDescription
        let lowered = reason.lowercased()
        if nsError.domain == NSURLErrorDomain {
            switch URLError.Code(rawValue: nsError.code) {
            case .timedOut:
                return ProxyFailure(.timedOut, reason: "no answer within \(describe(timeout)) (--proxy-timeout)")
            case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .networkConnectionLost, .notConnectedToInternet,
                 .resourceUnavailable, .internationalRoamingOff, .callIsActive, .dataNotAllowed:
                return ProxyFailure(.unreachable, reason: reason)
            case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
                 .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired:
                return ProxyFailure(.tls, reason: reason)
            case .cancelled:
                return TaskTable.cancelled
            default:
                break
            }
        }
        // curl on Linux reports TLS problems as "unknown" errors with OpenSSL's words.
        if lowered.contains("ssl") || lowered.contains("tls") || lowered.contains("certificate") {
            return ProxyFailure(.tls, reason: reason)
        }
        if lowered.contains("timed out") || lowered.contains("timeout") {
            return ProxyFailure(.timedOut, reason: "no answer within \(describe(timeout)) (--proxy-timeout): \(reason)")
        }
        return ProxyFailure(.failed, reason: reason.isEmpty ? "\(error)" : reason)
    }

    // MARK: - Time

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return total.overflow ? Int.max / 2 : Int(min(total.partialValue + attoseconds / 1_000_000_000, Int64.max / 2))
    }

    static func milliseconds(_ duration: Duration) -> String {
        let millis = seconds(duration) * 1000
        return String(Int(millis.rounded()))
    }

    static func describe(_ duration: Duration) -> String {
        let value = seconds(duration)
        if value >= 1, value == value.rounded() { return "\(Int(value)) s" }
        return "\(Int((value * 1000).rounded())) ms"
    }
}

// MARK: - URLSession plumbing

/// How one upstream exchange ended.
enum TaskResult: Sendable {
    case answer(status: Int, headers: [HTTPHeader], body: [UInt8])
    case failure(ProxyFailure)
}

/// Tasks in flight: their continuation, the bytes received so far and why they were stopped, if we stopped them.
final class TaskTable: Sendable {
    struct Entry {
        var task: URLSessionTask
        var continuation: CheckedContinuation<TaskResult, Never>
        var body: [UInt8] = []
        /// Set when mockd cancels the task itself (deadline, size), so the cancellation reads as that.
        var stoppedBecause: ProxyFailure?
    }

    let maxResponseBytes: Int
    /// For messages; the deadline itself is enforced by `expire`.
    let timeout: Duration
    private let entries = Mutex<[Int: Entry]>([:])

    init(maxResponseBytes: Int, timeout: Duration) {
        self.maxResponseBytes = maxResponseBytes
        self.timeout = timeout
    }

    /// Tasks whose caller was cancelled before they were registered.
    private let cancelledEarly = Mutex<Set<Int>>([])

    /// Registers a task about to start; false (and the continuation resumed) when its caller is already cancelled.
    func register(_ id: Int, task: URLSessionTask, continuation: CheckedContinuation<TaskResult, Never>) -> Bool {
        let early = cancelledEarly.withLock { early in
            if early.remove(id) != nil { return true }
            entries.withLock { $0[id] = Entry(task: task, continuation: continuation) }
            return false
        }
        if early { continuation.resume(returning: .failure(Self.cancelled)) }
        return !early
    }

    /// Drops a note `cancel` may have left for a task that had already completed.
    func forget(_ id: Int) {
        cancelledEarly.withLock { _ = $0.remove(id) }
    }

    static let cancelled = ProxyFailure(.cancelled, reason: "the request was cancelled (mockd is shutting down or the client went away)")

    /// The caller was cancelled: stop the task (it answers 503), or note it if it has not started.
    func cancel(_ id: Int) {
        let task: URLSessionTask? = cancelledEarly.withLock { early in
            let task: URLSessionTask? = entries.withLock { entries in
                guard var entry = entries[id] else { return nil }
                if entry.stoppedBecause == nil {
                    entry.stoppedBecause = Self.cancelled
                    entries[id] = entry
                }
                return entry.task
            }
            if task == nil { early.insert(id) }
            return task
        }
        task?.cancel()
    }

    func append(_ id: Int, _ data: Data) {
        let tooLarge: URLSessionTask? = entries.withLock { entries in
            guard var entry = entries[id], entry.stoppedBecause == nil else { return nil }
            if entry.body.count + data.count > maxResponseBytes {
                entry.stoppedBecause = ProxyFailure(.tooLarge, reason: "the answer is larger than \(maxResponseBytes) bytes")
                entry.body = []
                entries[id] = entry
                return entry.task
            }
            entry.body.append(contentsOf: data)
            entries[id] = entry
            return nil
        }
        tooLarge?.cancel()
    }

    /// The deadline passed: stop the task; it completes as cancelled and answers 504.
    func expire(_ id: Int) {
        let task: URLSessionTask? = entries.withLock { entries in
            guard var entry = entries[id], entry.stoppedBecause == nil else { return nil }
            entry.stoppedBecause = ProxyFailure(.timedOut, reason: "")
            entries[id] = entry
            return entry.task
        }
        task?.cancel()
    }

    func complete(_ id: Int, response: URLResponse?, error: (any Error)?) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: id) }) else { return }
        let result: TaskResult
        if let stopped = entry.stoppedBecause {
            if stopped.kind == .timedOut {
                result = .failure(ProxyFailure(.timedOut, reason: "no answer within \(UpstreamProxy.describe(timeout)) (--proxy-timeout)"))
            } else {
                result = .failure(stopped)
            }
        } else if let error {
            result = .failure(UpstreamProxy.classify(error, timeout: timeout))
        } else if let http = response as? HTTPURLResponse {
            var headers: [HTTPHeader] = []
            for (name, value) in http.allHeaderFields {
                guard let name = name as? String else { continue }
                headers.append(HTTPHeader(name, value as? String ?? "\(value)"))
            }
            result = .answer(status: http.statusCode, headers: headers, body: entry.body)
        } else {
            result = .failure(ProxyFailure(.failed, reason: "the upstream sent no HTTP response"))
        }
        entry.continuation.resume(returning: result)
    }
}

/// The session's delegate: collects bytes, refuses redirects (the 3xx is relayed), completes tasks.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: its only stored property is the Sendable table.
    let tasks: TaskTable

    init(tasks: TaskTable) {
        self.tasks = tasks
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        tasks.append(dataTask.taskIdentifier, data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        tasks.complete(task.taskIdentifier, response: task.response, error: error)
    }
}
