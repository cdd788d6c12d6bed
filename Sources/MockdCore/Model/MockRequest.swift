/// A request as the core sees it: plain Swift values, filled in by the HTTP adapter.
///
/// `public` like `HTTPHeader`, for the same reason: the adapter builds and reads one per request.
public struct MockRequest: Sendable {
    /// Upper-case as sent (`GET`, `POST`…).
    public var method: String
    /// Percent-decoded path without the query string.
    public var path: String
    /// Decoded query arguments, in order.
    public var query: [(name: String, value: String?)]
    /// The query string as sent (still percent-encoded, without `?`); empty when there is none.
    public var rawQuery: String
    public var headers: [HTTPHeader]
    /// The path as sent, still percent-encoded, when it held a `%` (else nil: `path` is what
    /// was sent). The proxy forwards this, so `/a%2Fb` stays one segment upstream.
    public var rawPath: String?
    public var body: [UInt8]

    public init(
        method: String, path: String, query: [(name: String, value: String?)] = [], rawQuery: String = "",
        headers: [HTTPHeader] = [], body: [UInt8] = [], rawPath: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.rawPath = rawPath
    }

    /// The scenario this request asks for with `X-Mock-Scenario`, if any.
    public var requestedScenario: String? { mockHeaders.scenario }

    /// The session this request belongs to (`X-Mock-Session`), if any.
    public var session: String? { mockHeaders.session }

    /// Both of mockd's own headers in one pass over the headers (this runs for every request).
    public var mockHeaders: (scenario: String?, session: String?) {
        var scenario: String?, session: String?
        for header in headers where header.name.utf8.count == 15 || header.name.utf8.count == 14 {
            if scenario == nil, HTTPHeader.namesEqual(header.name, "X-Mock-Scenario"), !header.value.isEmpty { scenario = header.value }
            if session == nil, HTTPHeader.namesEqual(header.name, "X-Mock-Session"), !header.value.isEmpty { session = header.value }
        }
        return (scenario, session)
    }
}
