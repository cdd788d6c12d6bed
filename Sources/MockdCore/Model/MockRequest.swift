/// A request as the core sees it: plain Swift values, filled in by the HTTP adapter.
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
    public var body: [UInt8]

    public init(method: String, path: String, query: [(name: String, value: String?)] = [], rawQuery: String = "",
                headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
    }

    /// The scenario this request asks for with `X-Mock-Scenario`, if any.
    public var requestedScenario: String? {
        headers.first(named: "X-Mock-Scenario").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The session this request belongs to (`X-Mock-Session`), if any.
    public var session: String? {
        headers.first(named: "X-Mock-Session").flatMap { $0.isEmpty ? nil : $0 }
    }
}
