public import Foundation
#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A client for mockd's admin API (`/__mockd/…` on the main port): sessions, scenarios, resets,
/// the request journal, waiting for requests, and stubs.
///
/// ```swift
/// let mockd = MockdClient()                                  // http://127.0.0.1:8080
/// let session = try await mockd.newSession(scenario: "empty")
/// app.launchEnvironment["MOCKD_BASE_URL"] = session.baseURL.absoluteString
/// ```
///
/// Every call throws ``MockdError/http(status:message:body:)`` with the server's own text when
/// the answer is not a 2xx.
public struct MockdClient: Sendable {
    /// The main port's base URL, such as `http://127.0.0.1:8080`.
    public let url: URL
    /// The admin token (`--admin-token`), sent as `Authorization: Bearer TOKEN`.
    public let token: String?
    /// The session that carries the requests.
    public let urlSession: URLSession

    /// A client for the mockd at `url`.
    ///
    /// - Parameters:
    ///   - url: The main port's base URL (not a session's).
    ///   - token: The admin token, when the server was started with `--admin-token`.
    ///   - urlSession: The `URLSession` to send with.
    public init(url: URL = URL(string: "http://127.0.0.1:8080")!, token: String? = nil, urlSession: URLSession = .shared) {
        self.url = url
        self.token = token
        self.urlSession = urlSession
    }

    // MARK: Server

    /// The server's health: `GET /__mockd/health`.
    public func health() async throws -> MockdHealth {
        try decode(MockdHealth.self, from: await send("GET", "/__mockd/health"))
    }

    // MARK: Sessions

    /// Opens a session on a port of its own: `POST /__mockd/sessions`.
    ///
    /// ```swift
    /// let session = try await mockd.newSession(id: "sim-3", scenario: "empty")
    /// // session.baseURL == http://127.0.0.1:53121
    /// ```
    ///
    /// - Parameters:
    ///   - id: The session's id; the server makes one when `nil`. An id in use is a 409.
    ///   - scenario: The session's scenario, or `nil` for the server's.
    ///   - device: The simulator the session's app runs on (a UDID): its pushes go there.
    ///   - bundleID: The session's app, for its pushes.
    /// - Returns: The session, with the `baseURL` to give the app.
    public func newSession(
        id: String? = nil, scenario: String? = nil, device: String? = nil, bundleID: String? = nil
    ) async throws -> MockdSession {
        var body: [String: String] = [:]
        if let id { body["id"] = id }
        if let scenario { body["scenario"] = scenario }
        if let device { body["device"] = device }
        if let bundleID { body["bundleId"] = bundleID }
        return try decode(MockdSession.self, from: await send("POST", "/__mockd/sessions", json: body))
    }

    /// The open sessions: `GET /__mockd/sessions`.
    public func sessions() async throws -> [MockdSession] {
        try decode(SessionList.self, from: await send("GET", "/__mockd/sessions")).sessions
    }

    /// Closes a session's port and forgets its state: `DELETE /__mockd/sessions/ID`. An unknown
    /// id is a 404.
    public func deleteSession(_ id: String) async throws {
        _ = try await send("DELETE", "/__mockd/sessions/" + Self.pathSegment(id))
    }

    // MARK: Scenarios and resets

    /// Sets the runtime scenario, of one session or of the server: `PUT /__mockd/scenario`.
    /// An unknown scenario is a 400 whose body lists the known ones.
    ///
    /// - Parameters:
    ///   - name: The scenario, such as `"error"`.
    ///   - session: The session whose scenario changes; `nil` changes the server's.
    public func setScenario(_ name: String, session: String? = nil) async throws {
        var body = ["scenario": name]
        if let session { body["session"] = session }
        _ = try await send("PUT", "/__mockd/scenario", json: body)
    }

    /// Resets one session (its scenario, sequence counters, stubs and journal entries), or
    /// everything when `session` is `nil`: `POST /__mockd/reset`.
    public func reset(session: String? = nil) async throws {
        if let session {
            _ = try await send("POST", "/__mockd/reset", json: ["session": session])
        } else {
            _ = try await send("POST", "/__mockd/reset")
        }
    }

    // MARK: The request journal

    /// The journal entries that match `filter`, oldest first: `GET /__mockd/requests`. Answers
    /// at once with what there is; to wait for a request, use
    /// ``waitForRequests(_:count:timeout:)``.
    public func requests(_ filter: MockdRequestFilter = MockdRequestFilter()) async throws -> [MockdRequest] {
        try decode(RequestList.self, from: await send("GET", "/__mockd/requests", query: filter.queryItems)).requests
    }

    /// Waits until at least `count` journal entries match `filter`, with one long-poll call
    /// (`GET /__mockd/requests?…&count=N&wait=S`): the server answers as soon as they are there.
    /// No polling, no sleeping.
    ///
    /// ```swift
    /// let posts = try await mockd.waitForRequests(
    ///     MockdRequestFilter(session: session.id, method: "POST", path: "/api/v1/login"))
    /// #expect(posts[0].header("Content-Type") == "application/json")
    /// ```
    ///
    /// - Parameters:
    ///   - filter: Which requests count.
    ///   - count: How many must match.
    ///   - timeout: Seconds the server waits at most, rounded up to a whole second.
    /// - Returns: The matching entries (at least `count`), oldest first.
    /// - Throws: ``MockdError/timedOut(found:)`` with the entries that matched when the time ran out.
    public func waitForRequests(_ filter: MockdRequestFilter, count: Int = 1, timeout: TimeInterval = 5) async throws -> [MockdRequest] {
        var query = filter.queryItems
        query.append(URLQueryItem(name: "count", value: String(max(count, 1))))
        query.append(URLQueryItem(name: "wait", value: Self.seconds(max(timeout, 0))))
        // The answer may take `timeout`: the request itself must wait longer than the server.
        let list = try decode(RequestList.self, from: await send("GET", "/__mockd/requests", query: query, timeout: timeout + 30))
        guard list.complete ?? (list.requests.count >= count) else {
            throw MockdError.timedOut(found: list.requests)
        }
        return list.requests
    }

    /// Clears the journal, of one session or all of it: `DELETE /__mockd/requests`.
    public func clearRequests(session: String? = nil) async throws {
        _ = try await send("DELETE", "/__mockd/requests", query: session.map { [URLQueryItem(name: "session", value: $0)] } ?? [])
    }

    // MARK: Stubs

    /// Adds a stub that answers `method path` with `status` and `json` as the body, ahead of
    /// files, routes and operations: `POST /__mockd/stubs`.
    ///
    /// ```swift
    /// struct Users: Encodable { var users: [String] }
    /// let stub = try await mockd.stub(method: "GET", path: "/api/v1/users", json: Users(users: []),
    ///                                 session: session.id)
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method to match, such as `"GET"`, or `"*"`.
    ///   - path: The path to match, in the route-table syntax (`/api/users/:id`, `*`, a final `**`).
    ///   - status: The status to answer with.
    ///   - json: The body, encoded with `encoder`.
    ///   - headers: Headers to answer with.
    ///   - session: The session it answers for; `nil` answers everyone.
    ///   - encoder: The encoder for `json` (set its key strategy for snake_case APIs).
    @discardableResult
    public func stub<Body: Encodable>(
        method: String = "GET", path: String, status: Int = 200, json: Body,
        headers: [String: String] = [:], session: String? = nil,
        encoder: JSONEncoder = JSONEncoder()
    ) async throws -> MockdStub {
        let body = try encoder.encode(json)
        return try await stub(route: Self.route(method: method, path: path, status: status, headers: headers, body: body), session: session)
    }

    /// Adds a stub that answers `method path` with `status`, `headers` and no body (an error
    /// status, for one): `POST /__mockd/stubs`.
    @discardableResult
    public func stub(
        method: String = "GET", path: String, status: Int, headers: [String: String] = [:],
        session: String? = nil
    ) async throws -> MockdStub {
        try await stub(route: Self.route(method: method, path: path, status: status, headers: headers, body: nil), session: session)
    }

    /// Adds a stub from one route object in the route-table format (`match`, `responses`,
    /// `delayMs`, `fault`, `template`: all of it; see docs/ROUTES.md): `POST /__mockd/stubs`.
    /// A bad route is a 400 whose text names the JSON path of the mistake.
    ///
    /// ```swift
    /// let route = Data(#"{"method": "POST", "path": "/api/v1/login", "response": {"fault": "reset"}}"#.utf8)
    /// try await mockd.stub(route: route, session: session.id)
    /// ```
    ///
    /// - Parameters:
    ///   - route: The route object as JSON text, without `session`.
    ///   - session: The session it answers for; `nil` answers everyone.
    @discardableResult
    public func stub(route: Data, session: String? = nil) async throws -> MockdStub {
        let body = try session.map { try Self.inserting(session: $0, into: route) } ?? route
        return try decode(MockdStub.self, from: await send("POST", "/__mockd/stubs", body: body))
    }

    /// The stubs in place: `GET /__mockd/stubs`.
    public func stubs() async throws -> [MockdStub] {
        try decode(StubList.self, from: await send("GET", "/__mockd/stubs")).stubs
    }

    /// Removes a stub: `DELETE /__mockd/stubs/ID`. An unknown id is a 404.
    public func deleteStub(_ id: String) async throws {
        _ = try await send("DELETE", "/__mockd/stubs/" + Self.pathSegment(id))
    }
}

// MARK: - Sending

extension MockdClient {
    private struct SessionList: Decodable { var sessions: [MockdSession] }
    private struct StubList: Decodable { var stubs: [MockdStub] }
    private struct RequestList: Decodable {
        var requests: [MockdRequest]
        var complete: Bool?
    }
    /// mockd's error answer: `error`, and for a refused stub the list of what is wrong.
    private struct ErrorBody: Decodable {
        var error: String
        var errors: [String]?

        /// The text a test shows: `error`, then each of `errors` (they name the JSON paths).
        var message: String {
            guard let errors, !errors.isEmpty else { return error }
            return error + ": " + errors.joined(separator: "; ")
        }
    }

    func send(_ method: String, _ path: String, json: [String: String]) async throws -> Data {
        try await send(method, path, body: JSONEncoder().encode(json))
    }

    /// Sends one admin call and returns the body of a 2xx answer. Package-wide for `mockd mcp`,
    /// whose tools hand mockd's JSON on as it is rather than through this client's models.
    package func send(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil,
        timeout: TimeInterval? = nil
    ) async throws -> Data {
        var request = URLRequest(url: endpoint(path, query: query))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let timeout { request.timeoutInterval = timeout }
        let (data, response) = try await urlSession.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw MockdError.invalidResponse("\(method) \(path): not an HTTP response")
        }
        guard (200...299).contains(http.statusCode) else {
            let text = String(decoding: data, as: UTF8.self)
            let message = (try? JSONDecoder().decode(ErrorBody.self, from: data))?.message ?? text
            throw MockdError.http(status: http.statusCode, message: message, body: text)
        }
        return data
    }

    /// `path` under the client's URL (keeping a path prefix the URL may have), with `query`.
    private func endpoint(_ path: String, query: [URLQueryItem]) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.percentEncodedPath = prefix + path
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { Self.queryPart($0.name) + "=" + Self.queryPart($0.value ?? "") }
                .joined(separator: "&")
        }
        return components.url ?? url
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw MockdError.invalidResponse("expected \(type): \(error); body: \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// Characters sent as they are; everything else is percent-encoded (`+`, `&`, `=` and space
    /// among them, which a query would otherwise read differently).
    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    private static func queryPart(_ text: String) -> String {
        // `/` and `*` are common in path globs and need no escape in a query.
        text.addingPercentEncoding(withAllowedCharacters: unreserved.union(CharacterSet(charactersIn: "/*:"))) ?? text
    }

    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// Seconds as `wait` takes them: a whole number, rounded up (mockd refuses `0.5`).
    static func seconds(_ value: TimeInterval) -> String {
        String(Int(min(max(value, 0), 86_400).rounded(.up)))
    }

    /// A route object with one response, as JSON text; `body` is JSON text already.
    static func route(method: String, path: String, status: Int, headers: [String: String], body: Data?) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var text = #"{"method":"# + String(decoding: try encoder.encode(method), as: UTF8.self)
        text += #","path":"# + String(decoding: try encoder.encode(path), as: UTF8.self)
        text += #","response":{"status":"# + String(status)
        if !headers.isEmpty { text += #","headers":"# + String(decoding: try encoder.encode(headers), as: UTF8.self) }
        // Spliced in as text, not re-serialized: the body's keys stay in the encoder's order.
        if let body { text += #","json":"# + String(decoding: body, as: UTF8.self) }
        return Data((text + "}}").utf8)
    }

    /// `route` with `"session": session` as its first member, spliced in as text so the rest
    /// (a `json` body's key order, for one) is sent exactly as written.
    static func inserting(session: String, into route: Data) throws -> Data {
        let bytes = [UInt8](route)
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let open = bytes.firstIndex(where: { !isSpace($0) }), bytes[open] == UInt8(ascii: "{") else {
            throw MockdError.invalidArgument("a route must be a JSON object, found: \(String(decoding: route.prefix(80), as: UTF8.self))")
        }
        let rest = bytes[(open + 1)...]
        let isEmpty = rest.first(where: { !isSpace($0) }) == UInt8(ascii: "}")
        let member = #""session":"# + String(decoding: try JSONEncoder().encode(session), as: UTF8.self) + (isEmpty ? "" : ",")
        return Data(bytes[...open] + Array(member.utf8) + rest)
    }
}
