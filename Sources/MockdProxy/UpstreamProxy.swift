import CCurl
package import Logging
import MockdCore

/// Forwards a request nothing matched to the `--proxy` upstream and relays its answer.
///
/// The HTTP client is libcurl's multi interface, loaded with dlopen when the first proxy is
/// created and driven by one thread of its own (`CurlLoop`) that sleeps in curl_multi_poll
/// while requests wait: a slow upstream costs no CPU. Connections are reused. Redirects are
/// relayed, not followed; an encoded answer (gzip…) is relayed as it came, except when
/// recording, where it is decoded to be saved readable. Every failure becomes a JSON answer
/// (502/503/504) saying which and why; `forward` never throws and always returns within
/// `configuration.timeout` (plus scheduling slack).
package final class UpstreamProxy: Sendable {
    let configuration: ProxyConfiguration
    /// Lines at info or below, the level swift-log's guide gives a library, but for the one at
    /// start that says the proxy cannot work at all: a failed forward or an odd request comes
    /// with requests, as often as clients send them; the executable's level decides what is shown.
    let logger: Logger
    private let prefix: String
    /// nil when libcurl could not be loaded or its thread not started: `unavailable` says why, and every forward answers it (502).
    private let loop: CurlLoop?
    let unavailable: ProxyFailure?
    /// libcurl, for the relayed WebSockets' connections (nil: `unavailable` says why).
    let library: CurlLibrary?

    package convenience init(configuration: ProxyConfiguration, logger: Logger) {
        self.init(configuration: configuration, logger: logger, library: CurlLibrary.shared)
    }

    /// `library`: libcurl as loaded, or why it could not be (tests pass a failure).
    init(configuration: ProxyConfiguration, logger: Logger, library: Result<CurlLibrary, CurlLoadError>) {
        self.configuration = configuration
        self.logger = logger
        self.prefix = configuration.upstreamPrefix
        self.library = try? library.get()
        switch library.mapError({ ProxyFailure(.unreachable, reason: "libcurl could not be loaded: \($0.description)") })
            .flatMap({ CurlLoop.start(library: $0) })
        {
        case .success(let loop):
            self.loop = loop
            self.unavailable = nil
        case .failure(let failure):
            self.loop = nil
            self.unavailable = failure
            logger.error(
                "proxy unavailable: every request forwarded upstream will answer with an error",
                metadata: [
                    "mockd.upstream": .string(configuration.upstreamPrefix), "mockd.reason": .string(failure.reason),
                    "mockd.status": .stringConvertible(failure.status),
                ])
        }
    }

    /// Cancels requests in flight (they answer 503) and stops the proxy's thread. Later forwards answer 503.
    package func shutdown() {
        loop?.shutdown()
    }

    deinit {
        loop?.shutdown()
    }

    /// CPU time used so far by the thread that drives libcurl (nil without one): for tests and measurements.
    var loopCPUTime: Duration? { loop?.threadCPUTime() }

    /// Sends `request` upstream and returns what to answer the client. Safe to call from any
    /// thread or task, concurrently; cancelling the calling task cancels the upstream request.
    func forward(_ request: MockRequest) async -> ProxyOutcome {
        let started = ContinuousClock.now
        let transfer: Transfer
        switch prepare(request) {
        case .send(let prepared): transfer = prepared
        case .unsent(let outcome): return outcome
        }
        let result: TaskResult = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<TaskResult, Never>) in
                submit(transfer) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            if transfer.markCancelled(), let loop { loop.cancel(transfer) }
        }
        return outcome(of: result, for: request, transfer.request, after: ContinuousClock.now - started)
    }

    /// `forward` for a caller with no task: `then` gets the outcome once, on the proxy's libcurl
    /// thread (at once, on the caller's, when the request cannot be sent). The server's parked
    /// requests take this way: no task waits for an upstream, and the answer needs no turn on
    /// the Swift concurrency pool. `shutdown` ends it with a 503.
    func forward(_ request: MockRequest, then: @escaping @Sendable (ProxyOutcome) -> Void) {
        let started = ContinuousClock.now
        switch prepare(request) {
        case .send(let transfer):
            submit(transfer) { [self] result in
                then(outcome(of: result, for: request, transfer.request, after: ContinuousClock.now - started))
            }
        case .unsent(let outcome):
            then(outcome)
        }
    }

    private enum Prepared {
        case send(Transfer)
        /// It cannot be sent: the answer says why.
        case unsent(ProxyOutcome)
    }

    /// The transfer for `request`, or the outcome that says why it cannot be sent.
    private func prepare(_ request: MockRequest) -> Prepared {
        guard loop != nil else {
            return .unsent(failed(unavailable ?? ProxyFailure(.failed, reason: "no HTTP client"), request: request, after: .zero))
        }
        switch makeRequest(request) {
        case .success(let built): return .send(Transfer(built))
        case .failure(let failure): return .unsent(failed(failure, request: request, after: .zero))
        }
    }

    /// Hands `transfer` to the loop; `completion` gets its result once.
    private func submit(_ transfer: Transfer, completion: @escaping @Sendable (TaskResult) -> Void) {
        guard let loop, transfer.begin(completion) else { return }
        if !loop.submit(transfer) { transfer.finish(.failure(Transfer.cancelledFailure)) }
    }

    /// What to answer the client for the upstream's `result`.
    private func outcome(
        of result: TaskResult, for request: MockRequest, _ upstreamRequest: UpstreamRequest, after elapsed: Duration
    ) -> ProxyOutcome {
        switch result {
        case .failure(let failure):
            return failed(failure, request: request, after: elapsed)
        case .answer(let status, let headers, let body):
            let relayed = BuiltResponse(
                status: status,
                headers: ForwardingRules.relayedResponseHeaders(headers, bodyDecoded: upstreamRequest.decodeAnswer),
                body: body, origin: .proxy(note: ""))
            logger.debug(
                "proxied",
                metadata: [
                    "mockd.method": .string(request.method), "mockd.path": .string(request.path),
                    "mockd.status": .stringConvertible(status),
                    "mockd.upstreamMs": .string(Self.milliseconds(elapsed)), "mockd.bytes": .stringConvertible(body.count),
                ])
            var outcome = ProxyOutcome(response: relayed, upstreamDuration: elapsed, failure: nil)
            if upstreamRequest.decodeAnswer, !relayed.headers.contains(where: { $0.name.lowercased() == "content-encoding" }) {
                outcome.undoneCoding = headers.first(named: "Content-Encoding")
            }
            return outcome
        }
    }

    // MARK: - Building the upstream request

    /// Methods sent with a Content-Length even when the body is empty.
    static let methodsWithBody: Set<String> = ["POST", "PUT", "PATCH"]

    func makeRequest(_ request: MockRequest) -> Result<UpstreamRequest, ProxyFailure> {
        let url: String
        switch upstreamURL(request) {
        case .success(let built): url = built
        case .failure(let failure): return .failure(failure)
        }
        // When recording, the answer is decoded to be saved readable: the client's Accept-Encoding does not apply.
        let decodeAnswer = configuration.record
        let forwarded = ForwardingRules.forwardedRequestHeaders(request.headers, decodingAnswer: decodeAnswer)
        // "Name;" sends an empty field ("Name:" would remove it).
        var lines = forwarded.map { $0.value.isEmpty ? $0.name + ";" : $0.name + ": " + $0.value }
        func has(_ name: String) -> Bool { forwarded.contains { $0.name.lowercased() == name } }
        // Fields libcurl would add on its own, removed unless the client sent them: the upstream sees the client's request.
        if !has("accept") { lines.append("Accept:") }

        let body: UpstreamRequest.Body
        if request.method == "HEAD" {
            if !request.body.isEmpty {
                logger.info(
                    "proxy: dropped the body of a HEAD request: a HEAD body means nothing",
                    metadata: ["mockd.path": .string(request.path), "mockd.bytes": .stringConvertible(request.body.count)])
            }
            body = .head
        } else if !request.body.isEmpty || Self.methodsWithBody.contains(request.method) {
            body = .bytes(request.body)
            // libcurl adds a form Content-Type to a body without one, and Expect: 100-continue to a large one.
            if !has("content-type") { lines.append("Content-Type:") }
            lines.append("Expect:")
        } else {
            body = .none
        }
        return .success(
            UpstreamRequest(
                url: url, method: request.method, headerLines: lines, body: body, decodeAnswer: decodeAnswer,
                timeout: configuration.timeout, maxResponseBytes: configuration.maxResponseBytes))
    }

    /// The upstream URL of `request`: the target as the client sent it when it was encoded
    /// (`%2F` stays `%2F`), else the decoded path encoded again.
    func upstreamURL(_ request: MockRequest) -> Result<String, ProxyFailure> {
        var url = prefix + (request.rawPath ?? ForwardingRules.encodePath(request.path))
        if !request.rawQuery.isEmpty { url += "?" + ForwardingRules.sanitizeQuery(request.rawQuery) }
        guard ASCII.isToken(request.method), !url.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else {
            return .failure(ProxyFailure(.badRequest, reason: "cannot build an upstream request from '\(request.method) \(url)'"))
        }
        return .success(url)
    }

    // MARK: - Failures

    func failed(_ failure: ProxyFailure, request: MockRequest, after elapsed: Duration) -> ProxyOutcome {
        logger.info(
            "proxy request failed",
            metadata: [
                "mockd.failure": .string(failure.kind.rawValue), "mockd.method": .string(request.method),
                "mockd.path": .string(request.path), "mockd.upstream": .string(prefix), "mockd.reason": .string(failure.reason),
                "mockd.upstreamMs": .string(Self.milliseconds(elapsed)),
            ])
        let response = ErrorAnswer(
            failure.status, failure.kind.rawValue, details: [("upstream", .string(prefix)), ("reason", .string(failure.reason))]
        ).response(origin: .proxyFailure(note: ""), layout: .pretty)
        return ProxyOutcome(response: response, upstreamDuration: elapsed, failure: failure)
    }

    /// What a libcurl error means for the client; `reason` is libcurl's words (its error buffer, else curl_easy_strerror).
    static func classify(_ code: CURLcode, reason: String, timeout: Duration) -> ProxyFailure {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return ProxyFailure(.timedOut, reason: "no answer within \(describe(timeout)) (--proxy-timeout)")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR, CURLE_RECV_ERROR,
            CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            return ProxyFailure(.unreachable, reason: reason)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            return ProxyFailure(.tls, reason: reason)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return ProxyFailure(.badRequest, reason: reason)
        default:
            return ProxyFailure(.failed, reason: reason)
        }
    }

    // MARK: - Time

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
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

    /// CURLOPT_TIMEOUT_MS: at least 1 (0 would mean none).
    static func timeoutMilliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        if total.overflow || total.partialValue > Int64(Int32.max) { return Int(Int32.max) }
        return max(1, Int(total.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }
}
