import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdKit
import Testing

/// MockdClient against a real mockd (MockdProcess on a copy of the repository's data): every
/// call once, and the errors a test meets.
@Suite("MockdClient against a real mockd")
struct ClientTests {
    @Test("health says what is loaded")
    func health() async throws {
        try await withMockd { client, process in
            let health = try await client.health()
            #expect(health.status == "ok")
            #expect(health.files > 0)
            #expect(health.routes > 0)
            #expect(health.scenario == "default")
            #expect(health.uptime >= 0)
            #expect(process.url == client.url)
            #expect(process.output.contains("mockd listening on \(client.url.absoluteString)"))
        }
    }

    @Test("setScenario and reset: the scenario changes, and a reset brings the default back")
    func scenarioAndReset() async throws {
        try await withMockd { client, _ in
            try await client.setScenario("error")
            #expect(try await client.health().scenario == "error")
            try await client.reset()
            #expect(try await client.health().scenario == "default")
        }
    }

    @Test("an unknown scenario is a MockdError with 400 and the server's text")
    func unknownScenario() async throws {
        try await withMockd { client, _ in
            let error = await httpError { try await client.setScenario("no-such-scenario") }
            #expect(error?.status == 400)
            #expect(error?.message == #"unknown scenario "no-such-scenario""#)
            guard case .http(_, _, let body)? = error else { Issue.record("expected .http, got \(String(describing: error))"); return }
            #expect(body.contains("\"known\""))
            #expect(body.contains("\"empty\""))
            #expect(error?.description.contains("400") == true)
        }
    }

    @Test("requests reads the journal with filters; clearRequests empties it")
    func requestsAndClear() async throws {
        try await withMockd { client, _ in
            try await send("GET", "/api/health", to: client.url)
            try await send("POST", "/api/v1/login", to: client.url, json: #"{"email":"ada@example.com"}"#, headers: ["X-API-Key": "k"])
            let all = try await client.requests()
            #expect(all.count == 2)
            let posts = try await client.requests(MockdRequestFilter(method: "POST", path: "/api/v1/*"))
            let post = try #require(posts.first)
            #expect(posts.count == 1)
            #expect(post.path == "/api/v1/login")
            #expect(post.status == 200)
            #expect(post.header("x-api-key") == "k")
            #expect(post.source?.contains("auth.json") == true)
            #expect(post.kind == .route)
            struct Login: Decodable { var email: String }
            #expect(try post.decodeBody(Login.self).email == "ada@example.com")
            #expect(try await client.requests(MockdRequestFilter(limit: 1)).count == 1)
            try await client.clearRequests()
            #expect(try await client.requests().isEmpty)
        }
    }

    @Test("stop ends mockd: it no longer answers, and a second stop does nothing")
    func stop() async throws {
        var stopped: (MockdClient, MockdProcess)?
        try await withMockd { client, process in
            #expect(process.isRunning)
            await process.stop()
            #expect(!process.isRunning)
            stopped = (client, process)
        }
        let (client, process) = try #require(stopped)
        await process.stop()
        await #expect(throws: (any Error).self) { _ = try await client.health() }
        #expect(process.output.contains("stopped"))
    }

    /// Foundation's `Process.run()` on Linux faulted in a process with this many descriptors
    /// open (a test process running many servers at once); MockdProcess does not use it.
    @Test("mockd starts and stops from a process with 2,000 descriptors open, and gets none of them")
    func manyDescriptors() async throws {
        let extra = 2_000
        #if os(Linux)
            let descriptors = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let descriptors = RLIMIT_NOFILE
        #endif
        // The other suites run at the same time and hold their own descriptors (hundreds of
        // servers): room for them too, not only for these 2,000.
        var limit = rlimit()
        getrlimit(descriptors, &limit)
        if limit.rlim_cur < limit.rlim_max, limit.rlim_cur < 1 << 16 {
            limit.rlim_cur = min(limit.rlim_max, 1 << 16)
            setrlimit(descriptors, &limit)
        }
        try #require(limit.rlim_cur >= rlim_t(extra + 1_024), "the descriptor limit (\(limit.rlim_cur)) is too low for this test")
        let opened = (0..<extra).map { _ in open("/dev/null", O_RDONLY) }
        defer { for descriptor in opened where descriptor >= 0 { close(descriptor) } }
        #expect(opened.allSatisfy { $0 >= 0 })
        try await withMockd { client, process in
            #expect(try await client.health().status == "ok")
            #if os(Linux)
                let pid = try #require(process.processIdentifier)
                let inherited = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
                #expect(inherited < 100, "mockd has \(inherited) descriptors open")
            #endif
        }
    }

    @Test("with a token, calls without it are refused and calls with it pass")
    func token() async throws {
        try await withMockd(adminToken: "secret") { client, _ in
            #expect(client.token == "secret")
            let health = try await client.health()
            #expect(health.status == "ok")
            let anonymous = MockdClient(url: client.url)
            let error = await httpError { _ = try await anonymous.health() }
            #expect(error?.status == 401)
        }
    }
}

/// Sessions, waiting and stubs: the calls a UI test makes to get its own world (a session port),
/// to wait for its app's requests instead of sleeping, and to answer for itself (stubs).
@Suite("Sessions, waiting and stubs")
struct SessionTests {
    @Test("a session is a base URL: created, listed, its requests journaled as its own, deleted")
    func sessionLifecycle() async throws {
        try await withMockd { client, _ in
            let session = try await client.newSession(id: "sim-1", scenario: "empty")
            #expect(session.id == "sim-1")
            #expect(session.scenario == "empty")
            #expect(session.port > 0)
            #expect(session.baseURL.port == session.port)
            #expect(try await client.sessions().contains(session))

            let unnamed = try await client.newSession()
            #expect(!unnamed.id.isEmpty)
            #expect(unnamed.scenario == nil)
            #expect(unnamed.port != session.port)

            // The scenario "empty" answers this session without any header.
            let (data, response) = try await send("GET", "/api/users", to: session.baseURL)
            #expect(response.statusCode == 200)
            let (mainData, _) = try await send("GET", "/api/users", to: client.url)
            #expect(data != mainData)
            let mine = try await client.requests(MockdRequestFilter(session: "sim-1"))
            #expect(mine.count == 1)
            #expect(mine.first?.session == "sim-1")
            #expect(mine.first?.scenario == "empty")

            try await client.setScenario("error", session: "sim-1")
            try await client.reset(session: "sim-1")
            #expect(try await client.requests(MockdRequestFilter(session: "sim-1")).isEmpty)
            #expect(try await client.requests().count == 1)  // the main port's request is still there

            try await client.clearRequests(session: "sim-1")
            try await client.deleteSession("sim-1")
            #expect(try await !client.sessions().contains { $0.id == "sim-1" })
            try await client.deleteSession(unnamed.id)
        }
    }

    @Test("a session id in use is a 409; an unknown one a 404")
    func sessionErrors() async throws {
        try await withMockd { client, _ in
            _ = try await client.newSession(id: "twice")
            let duplicate = await httpError { _ = try await client.newSession(id: "twice") }
            #expect(duplicate?.status == 409)
            #expect(duplicate?.message?.isEmpty == false)
            let unknown = await httpError { try await client.deleteSession("no-such-session") }
            #expect(unknown?.status == 404)
        }
    }

    @Test("waitForRequests returns once the app's POST has come, and checks its body")
    func waitForRequests() async throws {
        try await withMockd { client, _ in
            let session = try await client.newSession(id: "sim-wait")
            let filter = MockdRequestFilter(session: session.id, method: "POST", path: "/api/v1/login")
            async let waited = client.waitForRequests(filter, count: 1, timeout: 10)
            try await send(
                "POST", "/api/v1/login", to: session.baseURL, json: #"{"email":"ada@example.com"}"#,
                headers: ["X-API-Key": "k"])
            let found = try await waited
            let post = try #require(found.first)
            #expect(post.session == session.id)
            struct Login: Decodable { var email: String }
            #expect(try post.decodeBody(Login.self).email == "ada@example.com")
        }
    }

    @Test("waitForRequests throws timedOut with what matched when too few came")
    func waitTimesOut() async throws {
        try await withMockd { client, _ in
            try await send("GET", "/api/health", to: client.url)
            do {
                _ = try await client.waitForRequests(MockdRequestFilter(path: "/api/health"), count: 2, timeout: 1)
                Issue.record("expected MockdError.timedOut")
            } catch let MockdError.timedOut(found) {
                #expect(found.count == 1)
                #expect(found.first?.path == "/api/health")
            }
        }
    }

    @Test("stubs answer ahead of files, for their session, until deleted")
    func stubs() async throws {
        try await withMockd { client, _ in
            let session = try await client.newSession(id: "sim-stub")
            struct Users: Codable, Equatable { var users: [String] }
            let stub = try await client.stub(
                method: "GET", path: "/api/users", json: Users(users: ["ada"]),
                headers: ["X-A": "b"], session: session.id)
            #expect(!stub.id.isEmpty)
            #expect(stub.session == session.id)
            #expect(stub.method == "GET")
            #expect(stub.path == "/api/users")
            #expect(stub.origin == "stub#\(stub.id)")

            let (data, response) = try await send("GET", "/api/users", to: session.baseURL)
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "X-A") == "b")
            #expect(response.value(forHTTPHeaderField: "X-Mockd-Source") == "stub#\(stub.id)")
            #expect(try JSONDecoder().decode(Users.self, from: data) == Users(users: ["ada"]))
            // Not for the main port: the file still answers there.
            let (_, main) = try await send("GET", "/api/users", to: client.url)
            #expect(main.value(forHTTPHeaderField: "X-Mockd-Source") != "stub#\(stub.id)")

            let failing = try await client.stub(method: "POST", path: "/api/v1/login", status: 503)
            #expect(failing.session == nil)
            let (_, refused) = try await send("POST", "/api/v1/login", to: client.url, json: "{}")
            #expect(refused.statusCode == 503)

            let raw = try await client.stub(
                route: Data(#"{"method": "GET", "path": "/api/raw", "response": {"status": 202, "text": "ok"}}"#.utf8),
                session: session.id)
            let (rawBody, rawResponse) = try await send("GET", "/api/raw", to: session.baseURL)
            #expect(rawResponse.statusCode == 202)
            #expect(String(decoding: rawBody, as: UTF8.self) == "ok")

            let listed = try await client.stubs().map(\.id)
            #expect(Set(listed) == [stub.id, failing.id, raw.id])
            try await client.deleteStub(failing.id)
            #expect(try await !client.stubs().contains { $0.id == failing.id })
            let (_, restored) = try await send("POST", "/api/v1/login", to: client.url, json: "{}")
            #expect(restored.statusCode != 503)
            let unknown = await httpError { try await client.deleteStub(failing.id) }
            #expect(unknown?.status == 404)

            // A session's reset removes its stubs.
            try await client.reset(session: session.id)
            #expect(try await client.stubs().isEmpty)
        }
    }

    @Test("a bad stub is a 400 whose text names the JSON path")
    func badStub() async throws {
        try await withMockd { client, _ in
            let error = await httpError {
                _ = try await client.stub(route: Data(#"{"method": "GET", "path": "/x", "response": {"status": "ok"}}"#.utf8))
            }
            #expect(error?.status == 400)
            // The server's `errors` are in the message: the JSON path of the mistake.
            #expect(error?.message?.contains("response.status") == true)
        }
    }
}
