/// A request as the core sees it: plain Swift values, filled in by the HTTP adapter. Its facts
/// (the session, the scenario it asks for, whether the admin API takes it) are decided once, when
/// it is made, and read by every later step: nothing reads them from the headers again.
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
    /// The headers as sent (on a session's port, its `X-Mock-Session`). Setting them reads the
    /// session and the scenario from them again.
    public var headers: [HTTPHeader] {
        didSet { (askedScenario, session) = Self.mockHeaders(in: headers) }
    }
    /// The path as sent, still percent-encoded, when it held a `%` (else nil: `path` is what
    /// was sent). The proxy forwards this, so `/a%2Fb` stays one segment upstream.
    public var rawPath: String?
    public var body: [UInt8]
    /// The session it belongs to: its `X-Mock-Session`, which a session's port sets.
    public private(set) var session: String?
    /// The scenario its `X-Mock-Scenario` asks for.
    public private(set) var askedScenario: String?
    /// The admin API (`/__mockd/`) takes it: its path is under the prefix and the admin API is on
    /// (the adapter knows; made without saying, a path under the prefix is the admin API's).
    public var isAdmin: Bool

    public init(
        method: String, path: String, query: [(name: String, value: String?)] = [], rawQuery: String = "",
        headers: [HTTPHeader] = [], body: [UInt8] = [], rawPath: String? = nil, isAdmin: Bool? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.rawPath = rawPath
        self.isAdmin = isAdmin ?? AdminAPI.isAdminPath(path)
        (askedScenario, session) = Self.mockHeaders(in: headers)
    }

    /// Both of mockd's own headers in one pass over the headers.
    static func mockHeaders(in headers: [HTTPHeader]) -> (scenario: String?, session: String?) {
        var scenario: String?, session: String?
        for header in headers where header.name.utf8.count == 15 || header.name.utf8.count == 14 {
            if scenario == nil, HTTPHeader.namesEqual(header.name, "X-Mock-Scenario"), !header.value.isEmpty { scenario = header.value }
            if session == nil, HTTPHeader.namesEqual(header.name, "X-Mock-Session"), !header.value.isEmpty { session = header.value }
        }
        return (scenario, session)
    }
}
