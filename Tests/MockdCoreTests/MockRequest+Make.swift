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
        var all = headers + hostForAdmin(path)
        if let scenario { all.append(HTTPHeader("X-Mock-Scenario", scenario)) }
        if let session { all.append(HTTPHeader("X-Mock-Session", session)) }
        return MockRequest(method: method, path: path, headers: all, body: body)
    }
}

/// The `Host` a real client sends, for a request to the admin API, which refuses one without it
/// (`AdminHostGuard`); other requests are made without it, as the tests of headers expect.
func hostForAdmin(_ path: String) -> [HTTPHeader] {
    path.hasPrefix("/__mockd") ? [HTTPHeader("Host", "127.0.0.1")] : []
}
