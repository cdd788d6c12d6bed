#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Logging
import MockdCore

/// What is written when a request is done: the access-log line and the journal entry
/// (`GET /__mockd/requests`). The one place that logs requests. A class: every request reaches
/// it through the server, and a struct would be copied there (its logger and references retained).
final class RequestLog: Sendable {
    let logger: Logger
    let journal: RequestJournal
    /// Told of every journal entry, for dashboards waiting on `GET /__mockd/events`.
    let news: NewsFeed
    /// Told of every journal entry, for tests waiting on `GET /__mockd/requests?count=N&wait=S`.
    let requestWaits: NewsFeed
    /// Hide credential values in journal entries (see `ServerConfiguration.redactsJournalCredentials`).
    let redactsCredentials: Bool
    /// Where access lines go when the server was given a writer for them (`HTTPServer`'s
    /// `accessLog`); nil: through the logger, as every other line.
    private let accessWriter: AccessLogWriter?
    /// The logger's level allows access lines (read once: asking the handler costs an existential copy per request).
    private let logsRequests: Bool

    init(
        logger: Logger, accessWriter: AccessLogWriter? = nil, journal: RequestJournal, news: NewsFeed, requestWaits: NewsFeed,
        redactsCredentials: Bool = false
    ) {
        self.logger = logger
        self.accessWriter = accessWriter
        self.journal = journal
        self.news = news
        self.requestWaits = requestWaits
        self.redactsCredentials = redactsCredentials
        self.logsRequests = logger.logLevel <= .info
    }

    /// `status` 0: no answer was sent (the connection was closed or reset). `label`: what the
    /// access line and the journal say answered, `origin`'s label unless given (a prepared
    /// answer's, made at load; with how a fault or a stream ended). `response`: an answer built
    /// for this request, which the journal keeps for the dashboard.
    func record(
        _ request: MockRequest, status: Int, origin: Origin, label: String? = nil, scenario: String, state: RequestState,
        response: BuiltResponse? = nil
    ) {
        let source = label ?? origin.label
        let monotonic = RequestState.monotonicNanoseconds()
        state.loggedNanoseconds = monotonic
        let micros = (monotonic - state.startNanoseconds) / 1000
        let time = Timestamp.realtime()  // one reading for the access line and the journal
        let session = request.session
        if logsRequests {
            if let accessWriter {
                accessWriter.writeLine(
                    method: request.method, path: request.path, query: request.rawQuery, status: status, source: source,
                    repeatsStatus: origin.isMiss, durationMicroseconds: micros, scenario: scenario, session: session, at: time)
            } else {
                // One metadata value carrying typed fields: the handler lays it out as text or JSON,
                // and a request costs one small dictionary instead of five hashed keys.
                let record = AccessRecord(
                    method: request.method, path: request.path, status: status, source: source, repeatsStatus: origin.isMiss,
                    durationMicroseconds: micros,
                    query: request.rawQuery, scenario: scenario, session: session)
                logger.info("request", metadata: [AccessRecord.metadataKey: .stringConvertible(record)])
            }
        }
        guard journal.isEnabled, !request.isAdmin else { return }
        let truncated = request.body.count > journal.bodyLimit
        journal.append(
            RequestJournal.Entry(
                time: Self.seconds(time), method: request.method, path: request.path, query: request.rawQuery,
                headers: redactsCredentials ? CredentialRedactor.redact(request.headers) : request.headers,
                body: truncated ? Array(request.body.prefix(journal.bodyLimit)) : request.body, bodyTruncated: truncated,
                scenario: scenario, session: session, source: source, kind: origin.kind, status: status, durationMicroseconds: micros,
                response: response.map(journaled)))
        news.announce()
        requestWaits.announce()
    }

    /// A push mockd sent (or tried to), journaled as an entry of its own (`kind` `push`) for
    /// tests to read and wait for, and logged: it happens outside any request.
    func recordPush(_ order: PushOrder, outcome: PushOutcome, durationMicroseconds: UInt64) {
        logger.info(
            outcome.succeeded ? "push sent" : "push failed",
            metadata: [
                "mockd.push": "\(order.name ?? "payload")", "mockd.device": "\(order.device)", "mockd.bundle": "\(order.bundleID)",
                "mockd.result": "\(outcome.ending)",
            ])
        guard journal.isEnabled else { return }
        journal.append(order.entry(outcome, time: Self.now(), durationMicroseconds: durationMicroseconds, bodyLimit: journal.bodyLimit))
        news.announce()
        requestWaits.announce()
    }

    #if !MOCKD_NO_WEBSOCKET
        /// A WebSocket message, journaled as an entry of its own (`kind` `message`) for tests to
        /// read and wait for (`GET /__mockd/ws/messages`); the access log has one line a connection.
        func recordMessage(_ message: WebSocketPayload, outgoing: Bool, on connection: WebSocketConnection) {
            guard journal.isEnabled else { return }
            let (bytes, binary) = message.bytes
            let truncated = bytes.count > journal.bodyLimit
            let origin = Origin.webSocketMessage(connection: connection.id, outgoing: outgoing)
            journal.append(
                RequestJournal.Entry(
                    time: Self.now(), method: "GET", path: connection.path, query: "", headers: [],
                    body: truncated ? Array(bytes.prefix(journal.bodyLimit)) : bytes, bodyTruncated: truncated, scenario: "",
                    session: connection.session, source: origin.label, kind: origin.kind, status: 0, durationMicroseconds: 0,
                    message: RequestJournal.Message(
                        direction: outgoing ? "out" : "in", connection: connection.id, binary: binary, size: bytes.count)))
            news.announce()  // dashboards show the messages live (`GET /__mockd/events`)
            requestWaits.announce()
        }
    #endif

    /// A built answer as the journal keeps it: its bytes shared, not copied, unless past the body limit.
    private func journaled(_ response: BuiltResponse) -> RequestJournal.Response {
        let body = response.body.count > journal.bodyLimit ? Array(response.body.prefix(journal.bodyLimit)) : response.body
        return .init(contentType: response.headers.first(named: "Content-Type"), body: body)
    }

    /// Seconds since 1970, for journal entries.
    static func now() -> Double {
        seconds(Timestamp.realtime())
    }

    private static func seconds(_ time: timespec) -> Double {
        Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
