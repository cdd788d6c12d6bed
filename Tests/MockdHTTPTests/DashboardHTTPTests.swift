import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Testing

/// The dashboard's side of the admin API over real HTTP: the page, what can answer,
/// the live feed (a long poll), and creating a mock from a miss.
@Suite("Dashboard API over HTTP")
struct DashboardHTTPTests {
    static let files: [String: String] = [
        "users/mock_api_users_get.json": #"[{"id": 1, "name": "Ada"}]"#,
        "scenarios/empty/mock_api_users_get.json": "[]",
    ]
    static let table = routeTable(
        #"{"name": "server error", "scenario": "error", "method": "GET", "path": "/api/users", "response": {"status": 500, "json": {"error": "boom"}}}"#
    )

    static func withServer<T>(configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (RouteServer) async throws -> T)
        async throws -> T
    {
        try await withRouteServer(files: Self.files, tables: ["a.json": Self.table], configure: configure, body)
    }

    static func requests(_ object: [String: Any]) -> [[String: Any]] { (object["requests"] as? [[String: Any]]) ?? [] }

    /// A dashboard's first call: where the feed is now (`next`, `state`).
    static func feedStart(_ server: RouteServer) async throws -> (next: Int, state: Int) {
        let first = try await server.admin("GET", "/__mockd/events")
        #expect(first.status == 200)
        #expect(requests(first.object).isEmpty)
        return (try #require(first.object["next"] as? Int), try #require(first.object["state"] as? Int))
    }

    @Test func thePageAndItsFilesAreServed() async throws {
        try await Self.withServer { server in
            let redirect = try await server.test.raw("GET", "/__mockd")
            #expect(redirect.status == 308)
            #expect(redirect.header("Location") == "/__mockd/")
            let page = try await server.request("GET", "/__mockd/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.contains("dashboard.js"))
            #expect(page.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
            #expect(try await server.request("GET", "/__mockd/dashboard.js").header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(try await server.request("GET", "/__mockd/dashboard.css").header("Content-Type") == "text/css; charset=utf-8")
        }
    }

    @Test func withATokenThePageIsOpenAndTheDataIsNot() async throws {
        try await Self.withServer(configure: { $0.adminToken = "s3cret" }) { server in
            #expect(try await server.request("GET", "/__mockd/").status == 200)
            #expect(try await server.request("GET", "/__mockd/dashboard.js").status == 200)
            let refused = try await server.request("GET", "/__mockd/sources")
            #expect(refused.status == 401)
            #expect(refused.header("WWW-Authenticate") == #"Bearer realm="mockd admin""#)
            #expect(try await server.request("GET", "/__mockd/events", headers: ["Authorization": "Bearer wrong"]).status == 401)
            let sources = try await server.request("GET", "/__mockd/sources", headers: ["Authorization": "Bearer s3cret"])
            #expect(sources.status == 200)
        }
    }

    @Test func noAdminRemovesThePage() async throws {
        try await Self.withServer(configure: { $0.adminEnabled = false }) { (server: RouteServer) async throws in
            #expect(try await server.request("GET", "/__mockd/").status == 404)
            #expect(try await server.request("GET", "/__mockd/sources").status == 404)
        }
    }

    @Test func sourcesListWhatCanAnswerAndShowItInFull() async throws {
        try await Self.withServer { server in
            let listing = try await server.admin("GET", "/__mockd/sources")
            #expect(listing.status == 200)
            let sources = try #require(listing.object["sources"] as? [[String: Any]])
            #expect(
                sources.map { $0["origin"] as? String } == [
                    server.routes + "/a.json#0", "scenarios/empty/mock_api_users_get.json", "users/mock_api_users_get.json",
                ])
            #expect(sources.map { $0["kind"] as? String } == ["route", "file", "file"])
            #expect(sources.map { $0["url"] as? String } == ["/api/users", "/api/users", "/api/users"])
            #expect(sources.map { $0["scenario"] as? String } == ["error", "empty", nil])
            #expect(sources.map { $0["status"] as? Int } == [500, 200, 200])
            #expect(listing.object["scenarios"] as? [String] == ["default", "empty", "error"])

            let file = try await server.admin("GET", "/__mockd/source?origin=users%2Fmock_api_users_get.json")
            #expect(file.status == 200)
            let fileResponse = try #require((file.object["responses"] as? [[String: Any]])?.first)
            #expect(fileResponse["body"] as? String == #"[{"id": 1, "name": "Ada"}]"#)
            #expect((fileResponse["headers"] as? [String: String])?["Content-Type"] == "application/json; charset=utf-8")
            // As the journal names it ("route …"), and percent-encoded '#'.
            let origin = "route \(server.routes)/a.json#0".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let route = try await server.admin("GET", "/__mockd/source?origin=\(origin)")
            #expect(route.status == 200)
            #expect((route.object["responses"] as? [[String: Any]])?.first?["status"] as? Int == 500)
            #expect(try await server.admin("GET", "/__mockd/source?origin=nope.json").status == 404)
            #expect(try await server.admin("GET", "/__mockd/source").status == 400)
        }
    }

    @Test func eventsCarryNewRequestsWithIDsAndTheMissReport() async throws {
        try await Self.withServer { server in
            let (start, state) = try await Self.feedStart(server)
            #expect(try await server.request("GET", "/api/users").status == 200)
            #expect(try await server.request("GET", "/api/feed?page=2").status == 404)
            let news = try await server.admin("GET", "/__mockd/events?after=\(start)&state=\(state)&wait=30")
            let entries = Self.requests(news.object)
            #expect(entries.map { $0["path"] as? String } == ["/api/users", "/api/feed"])
            #expect(entries.map { $0["id"] as? Int } == [start + 1, start + 2])
            #expect(news.object["next"] as? Int == start + 2)
            #expect(entries.first?["response"] == nil, "a prepared answer is in the snapshot, not the journal")
            let miss = try #require(entries.last?["response"] as? [String: Any])
            #expect(
                (miss["body"] as? String)?.contains(#""file" : "mock_api_feed_get.json""#) == true
                    || (miss["body"] as? String)?.contains(#""file": "mock_api_feed_get.json""#) == true)
            #expect(entries.last?["query"] as? String == "page=2")
            // The journal lists the same ids.
            let journal = try await server.admin("GET", "/__mockd/requests")
            #expect(Self.requests(journal.object).map { $0["id"] as? Int } == [start + 1, start + 2])
        }
    }

    @Test func aLongPollWaitsForTheNextRequest() async throws {
        try await Self.withServer { server in
            let (next, state) = try await Self.feedStart(server)
            // The poll is answered by the request below, whether it is parked by then or not.
            async let poll = server.admin("GET", "/__mockd/events?after=\(next)&state=\(state)&wait=60")
            #expect(try await server.request("GET", "/api/users").status == 200)
            let answered = try await poll
            #expect(Self.requests(answered.object).map { $0["path"] as? String } == ["/api/users"])
        }
    }

    @Test func aLongPollWithNothingNewEndsAtItsWait() async throws {
        try await Self.withServer { server in
            let (next, state) = try await Self.feedStart(server)
            let clock = ContinuousClock()
            let started = clock.now
            let answer = try await server.admin("GET", "/__mockd/events?after=\(next)&state=\(state)&wait=1")
            #expect(clock.now - started >= .milliseconds(900), "it waited")
            #expect(answer.status == 200)
            #expect(Self.requests(answer.object).isEmpty)
            #expect(answer.object["next"] as? Int == next)
        }
    }

    @Test func aScenarioChangeWakesALongPoll() async throws {
        try await Self.withServer { server in
            let (next, state) = try await Self.feedStart(server)
            async let poll = server.admin("GET", "/__mockd/events?after=\(next)&state=\(state)&wait=60")
            #expect(try await server.admin("PUT", "/__mockd/scenario", body: #"{"scenario": "empty", "session": "sim-3"}"#).status == 200)
            let answered = try await poll
            #expect((answered.object["state"] as? Int).map { $0 > state } == true)
            #expect(answered.object["sessions"] as? [String: String] == ["sim-3": "empty"])
            #expect(answered.object["scenario"] as? String == "default")
        }
    }

    @Test func badEventArgumentsAre400() async throws {
        try await Self.withServer { (server: RouteServer) async throws in
            #expect(try await server.admin("GET", "/__mockd/events?after=x").status == 400)
            #expect(try await server.admin("GET", "/__mockd/events?after=1&wait=-1").status == 400)
        }
    }

    @Test func aMockCreatedFromAMissIsServedAtOnce() async throws {
        try await Self.withServer { server in
            #expect(try await server.request("GET", "/api/feed").status == 404)
            let created = try await server.admin(
                "POST", "/__mockd/mocks", body: #"{"method": "GET", "path": "/api/feed", "body": "{\"items\": []}"}"#)
            #expect(created.status == 201)
            #expect(created.object["file"] as? String == "mock_api_feed_get.json")
            #expect((created.object["reload"] as? [String: Any])?["status"] as? String == "ok")
            let written = try String(contentsOfFile: server.root + "/mock_api_feed_get.json", encoding: .utf8)
            #expect(written == "{\"items\": []}\n")
            let served = try await server.request("GET", "/api/feed")
            #expect(served.status == 200)
            #expect(served.text == "{\"items\": []}\n")
            // In a scenario, with a status.
            let error = try await server.admin(
                "POST", "/__mockd/mocks",
                body: #"{"method": "GET", "path": "/api/feed", "body": "{}", "status": 503, "scenario": "down"}"#)
            #expect(error.status == 201)
            #expect(error.object["file"] as? String == "scenarios/down/mock_api_feed_get.503.json")
            #expect(try await server.request("GET", "/api/feed", headers: ["X-Mock-Scenario": "down"]).status == 503)
        }
    }

    @Test func creatingNeverOverwrites() async throws {
        try await Self.withServer { server in
            let existing = try await server.admin("POST", "/__mockd/mocks", body: #"{"method": "GET", "path": "/api/users", "body": "{}"}"#)
            #expect(existing.status == 409)
            #expect(existing.object["file"] as? String == "users/mock_api_users_get.json")
            // A file that appeared on disk after the snapshot was read.
            try server.write("MockData/mock_api_late_get.json", #"{"late": true}"#)
            let late = try await server.admin("POST", "/__mockd/mocks", body: #"{"method": "GET", "path": "/api/late", "body": "{}"}"#)
            #expect(late.status == 409)
            #expect(try String(contentsOfFile: server.root + "/mock_api_late_get.json", encoding: .utf8) == #"{"late": true}"#)
        }
    }

    @Test(arguments: [
        #"{"method": "GET", "path": "/api/../../etc/passwd", "body": "{}"}"#,
        #"{"method": "GET", "path": "etc/passwd", "body": "{}"}"#,
        #"{"method": "GET", "path": "/api/./x", "body": "{}"}"#,
        #"{"method": "GET", "path": "/api/x", "body": "{}", "scenario": "../up"}"#,
        #"{"method": "GET", "path": "/api/x", "body": "{}", "scenario": "/tmp"}"#,
        #"{"method": "get", "path": "/api/x", "body": "{}"}"#,
        #"{"method": "GET", "path": "/api/x", "body": "{not json"}"#,
        #"{"method": "GET", "path": "/api/x", "body": "{}", "status": 99}"#,
        #"[1]"#,
    ])
    func badCreationsAre400AndWriteNothing(body: String) async throws {
        try await Self.withServer { server in
            let before = try Self.filesUnder(server.root + "/..")
            let refused = try await server.admin("POST", "/__mockd/mocks", body: body)
            #expect(refused.status == 400)
            #expect((refused.object["error"] as? String)?.isEmpty == false)
            #expect(try Self.filesUnder(server.root + "/..") == before)
        }
    }

    @Test func beyondLoopbackWithoutATokenCreatingIs403() async throws {
        try await Self.withServer(configure: { $0.host = "0.0.0.0" }) { server in
            let refused = try await server.admin("POST", "/__mockd/mocks", body: #"{"method": "GET", "path": "/api/feed", "body": "{}"}"#)
            #expect(refused.status == 403)
            #expect((refused.object["error"] as? String)?.contains("--admin-token") == true)
            #expect(!FileManager.default.fileExists(atPath: server.root + "/mock_api_feed_get.json"))
        }
        try await Self.withServer(configure: {
            $0.host = "0.0.0.0"; $0.adminToken = "t"
        }) { server in
            let created = try await server.admin(
                "POST", "/__mockd/mocks", body: #"{"method": "GET", "path": "/api/feed", "body": "{}"}"#,
                headers: ["Authorization": "Bearer t"])
            #expect(created.status == 201)
        }
    }

    static func filesUnder(_ folder: String) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }
}
