import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Logging
import MockdCore
import MockdDisk
import MockdGraphQL
import MockdHTTP
import MockdServe
import Testing
import TestSupport

// MARK: - A server with route tables (shared by the route, fault, admin and reload suites)

/// A running `HTTPServer` serving a mock root and a routes folder, with `reload` wired to both.
struct RouteServer: Sendable {
    let test: TestServer
    /// MockdServe's reloader, as `mockd serve` wires it (SIGHUP, the watcher, the admin API).
    let reloader: Reloader
    /// The mock root and the routes folder it serves.
    let root: String
    let routes: String

    var server: HTTPServer { test.server }

    /// Reads files and routes again, as SIGHUP does.
    @discardableResult
    func reload(trigger: String) -> ReloadReport { reloader.reload(trigger: trigger) }
    var port: Int { test.port }
    var baseURL: URL { test.baseURL }

    func request(_ method: String = "GET", _ target: String, headers: [String: String] = [:], body: Data? = nil) async throws -> HTTPResult
    {
        try await test.request(method, target, headers: headers, body: body)
    }

    /// Writes `contents` at `relativePath` under the routes folder's parent (`MockData/…` or `routes/…`).
    func write(_ relativePath: String, _ contents: String) throws {
        let url = URL(fileURLWithPath: (root as NSString).deletingLastPathComponent).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    /// The body of an admin call as a JSON object.
    func admin(_ method: String = "GET", _ target: String, body: String? = nil, headers: [String: String] = [:]) async throws -> (
        status: Int, object: [String: Any]
    ) {
        let result = try await request(method, target, headers: headers, body: body.map { Data($0.utf8) })
        return (result.status, try result.jsonObject())
    }
}

/// A URLSession like an app's: `timeout` is `timeoutIntervalForRequest`, `connections` the per-host limit.
func makeSession(timeout: TimeInterval? = nil, connections: Int? = nil) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    if let timeout { configuration.timeoutIntervalForRequest = timeout }
    if let connections { configuration.httpMaximumConnectionsPerHost = connections }
    return URLSession(configuration: configuration)
}

/// Starts an `HTTPServer` on 127.0.0.1 port 0 serving `files` under `MockData/` and `tables` under
/// `routes/` of a fresh folder (or the bundled MockData and routes), runs `body`, then shuts the
/// server down and removes the folder.
func withRouteServer<T>(
    files: [String: String] = [:],
    tables: [String: String] = [:],
    bundled: Bool = false,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    runtime: RuntimeState = RuntimeState(),
    journal: RequestJournal = RequestJournal(),
    session: URLSession = makeSession(),
    graphQL: [String] = [],
    graphQLSchema: String? = nil,
    pusher: (any PushSending)? = nil,
    _ body: (RouteServer) async throws -> T
) async throws -> T {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    defer { session.invalidateAndCancel() }
    let root = bundled ? Fixture.bundledMockData : folder.child("MockData")
    let routes = bundled ? Fixture.repositoryRoot.appendingPathComponent("routes").path : folder.child("routes")
    if !bundled {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: routes, withIntermediateDirectories: true)
        for (path, contents) in files { try folder.write("MockData/" + path, contents) }
        for (path, contents) in tables { try folder.write("routes/" + path, contents) }
    }
    var configured = MockDataLoader(files: DiskFiles(), root: root, routes: routes)
    if let graphQLSchema { try folder.write("schema.graphqls", graphQLSchema) }
    if !graphQL.isEmpty {
        configured.graphQL = GraphQLConfiguration(
            endpoints: graphQL, reader: GraphQLParserReader(),
            schema: graphQLSchema.map { _ in GraphQLSchemaFile(path: folder.child("schema.graphqls")) })
    }
    let loader = configured
    let loaded = loader.load()
    let snapshot = try #require(loaded.snapshot, "fixture did not load: \(loaded.diagnostics)")

    let reloader = Reloader(logger: silentLogger) { loader.load() }
    return try await withServer(
        snapshot: snapshot, configure: configure, runtime: runtime, logger: silentLogger, journal: journal,
        reloads: reloader, mockWriter: MockFileWriter(root: root), pusher: pusher, attach: reloader.serve
    ) { server in
        #expect(server.port > 0)
        return try await body(
            RouteServer(
                test: TestServer(server: server, root: root, session: session), reloader: reloader,
                root: root, routes: routes))
    }
}

/// Starts the `mockd` binary like `CLITests.withMockd`, but never blocks a cooperative thread:
/// reading the startup line and stopping the process (which waits for its exit) run on threads of their own.
func withMockdProcess<T>(
    _ arguments: [String], environment: [String: String] = [:], in folder: TemporaryFolder,
    currentDirectory: String? = nil, _ body: (ChildProcess, CLITests.Startup) async throws -> T
) async throws -> T {
    let child = try ChildProcess(
        executable: CLITests.executable, arguments: arguments, environment: environment,
        currentDirectory: currentDirectory ?? folder.path, stderrPath: folder.child("mockd-\(UUID().uuidString).stderr"))
    let result: Result<T, any Error>
    do {
        let line = try await blocking { try child.readLine() }
        let match = try #require(line.wholeMatch(of: CLITests.startupLine), "unexpected startup line: \(line.debugDescription)")
        result = .success(try await body(child, CLITests.Startup(line: line, port: Int(match.1)!, files: Int(match.2)!)))
    } catch {
        result = .failure(error)
    }
    try await blocking { child.stop() }
    return try result.get()
}

extension ChildProcess {
    /// `waitForStderr` on a thread of its own.
    func stderrEventually(contains text: String, timeout: Duration = eventDeadline) async throws -> Bool {
        try await blocking { self.waitForStderr(containing: text, timeout: timeout) }
    }
}

/// `{"routes": [ items ]}`
func routeTable(_ items: String...) -> String {
    "{\"routes\": [\n" + items.joined(separator: ",\n") + "\n]}\n"
}

/// Seconds since `start`, as a Double.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

// MARK: - The bundled routes through the app's APIClient

/// The bundled `routes/` and `MockData/` through the app's real `APIClient` (seeds/001):
/// authentication errors, scenarios, a retry, a template, where an answer came from.
/// Expected values are read from the bundled files.
@Suite("Route tables over HTTP (bundled routes, APIClient)")
struct RouteHTTPTests {
    /// `user.json` rendered: the fields the template fills from the path, `now` and `uuid`.
    struct TemplatedUser: Decodable, Sendable {
        let id: Int
        let firstName: String
        let lastName: String
        let email: String
        let isActive: Bool
        let createdAt: Date
        let requestedAt: Date
        let requestId: UUID
    }

    static let routesFolder = Fixture.repositoryRoot.appendingPathComponent("routes").path

    static func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The bundled route named `name` in `table`, and its index there.
    static func route(named name: String, in table: String) throws -> (index: Int, route: [String: Any]) {
        let object = try #require(try json(routesFolder + "/" + table) as? [String: Any])
        let routes = try #require(object["routes"] as? [[String: Any]])
        let index = try #require(routes.firstIndex { $0["name"] as? String == name }, "no route \(name) in \(table)")
        return (index, routes[index])
    }

    static func withClient(_ body: (APIClient, RouteServer) async throws -> Void) async throws {
        try await withRouteServer(bundled: true) { server in
            try await body(APIClient(baseURL: server.baseURL, session: server.test.session), server)
        }
    }

    @Test func me_WithoutAToken_Is401WithTheRouteBody() async throws {
        let (_, route) = try Self.route(named: "the signed-in user, without a token", in: "auth.json")
        let response = try #require(route["response"] as? [String: Any])
        let expectedBody = try #require(response["json"] as? NSDictionary)
        try await Self.withClient { client, _ in
            do {
                let _: User = try await client.request("/api/me")
                Issue.record("GET /api/me without a token succeeded")
            } catch NetworkError.httpError(let statusCode, let data) {
                #expect(statusCode == response["status"] as? Int)
                #expect(statusCode == 401)
                let body = try JSONSerialization.jsonObject(with: data) as? NSDictionary
                #expect(body == expectedBody)
            }
        }
    }

    @Test func me_WithBearerAndAPIKey_IsTheUser() async throws {
        let (index, route) = try Self.route(named: "the signed-in user, with a bearer token", in: "auth.json")
        let file = try #require((route["response"] as? [String: Any])?["file"] as? String)
        let expected = try #require(try Self.json(Fixture.bundledMockData + "/" + file) as? [String: Any])
        try await Self.withClient { client, server in
            let user: User = try await client.request("/api/me", headers: ["Authorization": "Bearer t", "X-API-Key": "k"])
            #expect(user.id == expected["id"] as? Int)
            #expect(user.firstName == expected["first_name"] as? String)
            #expect(user.email == expected["email"] as? String)
            // The bearer token alone is not enough: the route also wants the API key.
            do {
                let _: User = try await client.request("/api/me", headers: ["Authorization": "Bearer t"])
                Issue.record("a token without an API key was accepted")
            } catch NetworkError.httpError(let statusCode, _) {
                #expect(statusCode == 401)
            }
            // Where the answer came from: the route, by table and index.
            let raw = try await server.request("GET", "/api/me", headers: ["Authorization": "Bearer t", "X-API-Key": "k"])
            #expect(raw.header("X-Mockd-Source") == "route \(Self.routesFolder)/auth.json#\(index)")
            #expect(raw.header("Content-Type") == "application/json; charset=utf-8")
        }
    }

    @Test func emptyScenario_IsAnEmptyList() async throws {
        let expected = try #require(try Self.json(Fixture.bundledMockData + "/scenarios/empty/mock_api_users_get.json") as? [Any])
        #expect(expected.isEmpty)
        try await Self.withClient { client, _ in
            let users: [User] = try await client.request("/api/users", headers: ["X-Mock-Scenario": "empty"])
            #expect(users.count == expected.count)
            let all: [User] = try await client.request("/api/users")
            #expect(!all.isEmpty)
        }
    }

    @Test func flakyScenario_503ThenTheListOnRetry() async throws {
        let (_, route) = try Self.route(named: "a retry: 503 first, then the real list", in: "scenarios.json")
        let responses = try #require(route["responses"] as? [[String: Any]])
        let first = try #require(responses.first)
        let file = try #require(responses.last?["file"] as? String)
        let expected = try #require(try Self.json(Fixture.bundledMockData + "/" + file) as? [String: Any])
        let expectedIDs = (expected["episodes"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }
        try await Self.withClient { client, _ in
            // Each test case its own session, so parallel tests do not share the counter.
            let headers = ["X-Mock-Scenario": "flaky", "X-Mock-Session": UUID().uuidString]
            var attempts = 0
            var page: EpisodePage?
            while page == nil && attempts < 3 {
                attempts += 1
                do {
                    page = try await client.request("/api/episodes", headers: headers)
                } catch NetworkError.httpError(let statusCode, let data) {
                    #expect(attempts == 1, "failed again on attempt \(attempts)")
                    #expect(statusCode == first["status"] as? Int)
                    #expect(statusCode == 503)
                    #expect((try JSONSerialization.jsonObject(with: data) as? NSDictionary) == first["json"] as? NSDictionary)
                }
            }
            #expect(attempts == 2)
            #expect(page?.episodes.map(\.id) == expectedIDs)
            // Another session starts from the first response.
            do {
                let _: EpisodePage = try await client.request(
                    "/api/episodes", headers: ["X-Mock-Scenario": "flaky", "X-Mock-Session": UUID().uuidString])
                Issue.record("a new session did not start with the 503")
            } catch NetworkError.httpError(let statusCode, _) {
                #expect(statusCode == 503)
            }
        }
    }

    @Test func templatedUser_DecodesWithThePathParameter() async throws {
        let template = try String(contentsOfFile: Fixture.bundledMockData + "/users/user.json", encoding: .utf8)
        // The template with the path filled in and placeholders for the per-request values.
        let filled = template.replacingOccurrences(of: "{{path.id}}", with: "42")
            .replacingOccurrences(of: "{{now}}", with: "2000-01-01T00:00:00Z")
            .replacingOccurrences(of: "{{uuid}}", with: UUID().uuidString)
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(filled.utf8)) as? [String: Any])
        try await Self.withClient { client, server in
            let before = Date()
            let user: TemplatedUser = try await client.request("/api/users/42")
            #expect(user.id == 42)
            #expect(user.id == expected["id"] as? Int)
            #expect(user.firstName == expected["first_name"] as? String)
            #expect(user.lastName == expected["last_name"] as? String)
            #expect(user.email == expected["email"] as? String)
            #expect(user.isActive == expected["is_active"] as? Bool)
            #expect(user.createdAt == (expected["created_at"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(abs(user.requestedAt.timeIntervalSince(before)) < 60)
            let other: TemplatedUser = try await client.request("/api/users/43")
            #expect(other.id == 43)
            #expect(other.requestId != user.requestId)
            let raw = try await server.request("GET", "/api/users/42")
            #expect(raw.header("Cache-Control") == "no-store")
            let (index, _) = try Self.route(named: "any user by id, rendered from a template", in: "users.json")
            #expect(raw.header("X-Mockd-Source") == "route \(Self.routesFolder)/users.json#\(index)")
        }
    }

    /// As users run it from the repository: `--routes routes`, so sources read `route routes/auth.json#N`.
    @Test func cli_ServesTheBundledRoutesWithRelativeSources() async throws {
        let (index, _) = try Self.route(named: "the signed-in user, with a bearer token", in: "auth.json")
        let tables = try FileManager.default.contentsOfDirectory(atPath: Self.routesFolder).filter { $0.hasSuffix(".json") }
        let routeCount = try tables.reduce(0) { count, table in
            count + (((try Self.json(Self.routesFolder + "/" + table) as? [String: Any])?["routes"] as? [Any])?.count ?? 0)
        }
        let mockFiles = (FileManager.default.enumerator(atPath: Fixture.bundledMockData)?.allObjects as? [String] ?? [])
            .filter { ($0 as NSString).lastPathComponent.hasPrefix("mock_") && $0.hasSuffix(".json") }
        try await withTemporaryFolder { scratch in
            try await withMockdProcess(
                ["--root", "MockData", "--routes", "routes", "--port", "0", "--no-watch"], in: scratch,
                currentDirectory: Fixture.repositoryRoot.path
            ) { mockd, startup in
                let match = try #require(startup.line.wholeMatch(of: CLITests.startupLine))
                #expect(Int(match.2) == mockFiles.count)
                #expect(Int(match.3) == routeCount)
                let response = try await blocking {
                    try RawConnection.exchange(
                        port: startup.port, "GET", "/api/me", headers: [("Authorization", "Bearer t"), ("X-API-Key", "k")])
                }
                #expect(response.status == 200)
                #expect(response.header("X-Mockd-Source") == "route routes/auth.json#\(index)")
                #expect(
                    try await mockd.stderrEventually(contains: "route routes/auth.json#\(index)"),
                    "the access log names the route: \(mockd.stderrText())")
            }
        }
    }

    struct SearchResult: Decodable, Sendable { let id: Int; let firstName: String }

    @Test func searchTemplate_EscapesTheQueryForJSON() async throws {
        try await Self.withClient { _, server in
            // URLSession percent-encodes the quotes and the space; mockd decodes, then escapes for JSON.
            var components = URLComponents(url: server.baseURL.appendingPathComponent("/api/users/search"), resolvingAgainstBaseURL: false)!
            components.queryItems = [URLQueryItem(name: "q", value: #"Ada "the" \ Countess"#)]
            let (data, response) = try await server.test.session.data(from: components.url!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let results = try decoder.decode([SearchResult].self, from: data)
            #expect(results.map(\.firstName) == [#"Ada "the" \ Countess"#])
        }
    }

    /// `users/user.json` renders `"id": {{path.id}}` unquoted, so the route must only take numbers:
    /// anything else (or a search without `q`, which falls through) is a 404 report, not invalid JSON.
    @Test("a non-numeric user id or a search without q is a 404", arguments: ["/api/users/abc", "/api/users/search"])
    func templatedUser_NonNumericIDIs404(endpoint: String) async throws {
        try await Self.withClient { client, _ in
            do {
                let _: TemplatedUser = try await client.request(endpoint)
                Issue.record("\(endpoint) decoded as a user")
            } catch NetworkError.httpError(let statusCode, let data) {
                #expect(statusCode == 404)
                #expect((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["path"] as? String == endpoint)
            }
        }
    }

    struct NewUser: Encodable, Sendable {
        let firstName: String
        enum CodingKeys: String, CodingKey { case firstName = "first_name" }
    }
    struct CreatedUser: Decodable, Sendable { let id: Int; let firstName: String; let createdAt: Date }

    @Test func createUserTemplate_EchoesTheJSONBody() async throws {
        let (index, route) = try Self.route(named: "creating a user echoes the name it was sent", in: "users.json")
        let response = try #require(route["response"] as? [String: Any])
        let headers = try #require(response["headers"] as? [String: String])
        try await Self.withClient { client, server in
            let name = #"Zoë "Z" O'Neil"#
            let before = Date()
            let created: CreatedUser = try await client.request("/api/users", method: .post, body: NewUser(firstName: name))
            #expect(created.firstName == name)
            #expect(abs(created.createdAt.timeIntervalSince(before)) < 60)
            let raw = try await server.request("POST", "/api/users", body: Data(#"{"first_name": "x"}"#.utf8))
            #expect(raw.status == response["status"] as? Int)
            #expect(raw.header("Location") == headers["Location"])
            #expect(raw.header("X-Mockd-Source") == "route \(Self.routesFolder)/users.json#\(index)")
        }
    }

    @Test func headOnAGETRoute_HasTheHeadersAndNoBody() async throws {
        try await withRouteServer(bundled: true) { server in
            let head = try await server.test.raw("HEAD", "/api/me")
            let get = try await server.test.raw("GET", "/api/me")
            #expect(head.status == 401)
            #expect(head.body.isEmpty)
            #expect(head.header("WWW-Authenticate") == "Bearer")
            #expect(head.header("Content-Length") == String(get.body.count))
            #expect(head.header("X-Mockd-Source") == get.header("X-Mockd-Source"))
        }
    }

    @Test func conditionsOnTheWire_HeadersQueryAndJSONBody() async throws {
        let table = routeTable(
            #"{"method": "POST", "path": "/api/login", "match": {"headers": {"x-api-key": "*"}, "query": {"lang": "en"}, "json": {"user": {"email": "a@b.c"}}}, "response": {"status": 202, "text": "all three"}}"#,
            #"{"method": "POST", "path": "/api/login", "response": {"status": 401, "text": "fallback"}}"#)
        try await withRouteServer(tables: ["t.json": table]) { server in
            let body = Data(#"{"user": {"email": "a@b.c", "name": "Ada"}, "n": 1}"#.utf8)
            let hit = try await server.request("POST", "/api/login?lang=en", headers: ["X-API-Key": "k"], body: body)
            #expect(hit.status == 202)
            #expect(hit.text == "all three")
            #expect(hit.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(try await server.request("POST", "/api/login?lang=fr", headers: ["X-API-Key": "k"], body: body).status == 401)
            #expect(try await server.request("POST", "/api/login?lang=en", body: body).status == 401)
            #expect(
                try await server.request("POST", "/api/login?lang=en", headers: ["X-API-Key": "k"], body: Data("{}".utf8)).status == 401)
        }
    }
}
