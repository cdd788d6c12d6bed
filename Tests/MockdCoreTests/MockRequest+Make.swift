import MockdCore

/// Request factories for socket-free tests (FlyingFox's `HTTPRequest+Mock.swift` pattern).
extension MockRequest {
    /// A request as the HTTP adapter would hand it to the core: `path` already percent-decoded,
    /// without the query; `scenario` and `session` become `X-Mock-Scenario` / `X-Mock-Session`.
    static func make(
        method: String = "GET",
        path: String = "/",
        scenario: String? = nil,
        session: String? = nil,
        headers: [HTTPHeader] = [],
        body: [UInt8] = []
    ) -> MockRequest {
        var all = headers
        if let scenario { all.append(HTTPHeader("X-Mock-Scenario", scenario)) }
        if let session { all.append(HTTPHeader("X-Mock-Session", session)) }
        return MockRequest(method: method, path: path, headers: all, body: body)
    }
}
