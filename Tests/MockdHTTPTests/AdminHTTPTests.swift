import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Testing

/// The admin API over real HTTP: every admin call, the token, `--no-admin`, the journal,
/// per-session scenarios and reset, the way a test suite drives mockd.
@Suite("Admin API over HTTP")
struct AdminHTTPTests {
    static let files: [String: String] = [
        "users/mock_api_users_get.json": #"[{"id": 1, "name": "Ada"}]"#,
        "scenarios/empty/mock_api_users_get.json": "[]",
        "mock_api_v1_login_post.json": #"{"token": "t"}"#,
    ]
    static let table = routeTable(
        #"{"name": "server error", "scenario": "error", "method": "GET", "path": "/api/users", "response": {"status": 500, "json": {"error": "boom"}}}"#,
        #"{"method": "GET", "path": "/api/seq", "responses": [{"text": "one"}, {"text": "two"}, {"text": "three"}]}"#)

    static func withServer<T>(
        configure: (inout ServerConfiguration) -> Void = { _ in }, journal: RequestJournal = RequestJournal(),
        _ body: (RouteServer) async throws -> T
    ) async throws -> T {
        try await withRouteServer(files: Self.files, tables: ["a.json": Self.table], configure: configure, journal: journal, body)
    }

    static func paths(_ object: [String: Any]) -> [String?] {
        ((object["requests"] as? [[String: Any]]) ?? []).map { $0["path"] as? String }
    }

    @Test func everyCall() async throws {
        try await Self.withServer { server in
            // health
            let health = try await server.admin("GET", "/__mockd/health")
            #expect(health.status == 200)
            #expect(health.object["status"] as? String == "ok")
            #expect(health.object["files"] as? Int == Self.files.count)
            #expect(health.object["routes"] as? Int == 2)
            #expect(health.object["scenario"] as? String == "default")
            #expect((health.object["uptime"] as? Double).map { $0 >= 0 } == true)
            #expect(health.object["lastReload"] is NSNull)
            // routes
            let routes = try await server.admin("GET", "/__mockd/routes")
            #expect(routes.status == 200)
            #expect(
                (routes.object["routes"] as? [[String: Any]])?.map { $0["source"] as? String } == [
                    server.routes + "/a.json#0", server.routes + "/a.json#1",
                ])
            #expect((routes.object["files"] as? [Any])?.count == Self.files.count)
            #expect(routes.object["scenarios"] as? [String] == ["empty", "error"])
            // scenario
            let scenario = try await server.admin("GET", "/__mockd/scenario")
            #expect(scenario.object["scenario"] as? String == "default")
            #expect(scenario.object["known"] as? [String] == ["default", "empty", "error"])
            let set = try await server.admin("PUT", "/__mockd/scenario", body: #"{"scenario": "error"}"#)
            #expect(set.status == 200)
            #expect(try await server.request("GET", "/api/users").status == 500)
            let unknown = try await server.admin("PUT", "/__mockd/scenario", body: #"{"scenario": "nope"}"#)
            #expect(unknown.status == 400)
            #expect(unknown.object["known"] as? [String] == ["default", "empty", "error"])
            // requests
            let requests = try await server.admin("GET", "/__mockd/requests")
            #expect(requests.status == 200)
            #expect(Self.paths(requests.object) == ["/api/users"], "admin calls are not journaled")
            let cleared = try await server.admin("DELETE", "/__mockd/requests")
            #expect(cleared.object["cleared"] as? Int == 1)
            #expect(Self.paths(try await server.admin("GET", "/__mockd/requests").object).isEmpty)
            // reset
            let reset = try await server.admin("POST", "/__mockd/reset")
            #expect(reset.status == 200)
            #expect(reset.object["scenario"] as? String == "default")
            #expect(try await server.request("GET", "/api/users").status == 200)
            // reload
            let reload = try await server.admin("POST", "/__mockd/reload")
            #expect(reload.status == 200)
            #expect(reload.object["status"] as? String == "ok")
            #expect(reload.object["trigger"] as? String == "admin")
            #expect(reload.object["files"] as? Int == Self.files.count)
            let after = try await server.admin("GET", "/__mockd/health")
            #expect((after.object["lastReload"] as? [String: Any])?["status"] as? String == "ok")
            // wrong method, unknown endpoint
            let wrong = try await server.request("DELETE", "/__mockd/health")
            #expect(wrong.status == 405)
            #expect(wrong.header("Allow") == "GET")
            let missing = try await server.request("GET", "/__mockd/nope")
            #expect(missing.status == 404)
            #expect(missing.header("X-Mockd-Source") == "admin")
        }
    }

    @Test func adminToken_RequiredOnEveryCall() async throws {
        try await Self.withServer(configure: { $0.adminToken = "s3cret" }) { server in
            for (method, target) in [("GET", "/__mockd/health"), ("GET", "/__mockd/requests"), ("POST", "/__mockd/reset")] {
                let none = try await server.request(method, target)
                #expect(none.status == 401, "\(method) \(target) without a token")
                #expect((try none.jsonObject()["error"] as? String)?.contains("Authorization: Bearer") == true)
                // RFC 9110 15.5.2: a 401 carries WWW-Authenticate with the scheme.
                #expect(none.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(none.headers)")
                let wrong = try await server.request(method, target, headers: ["Authorization": "Bearer nope"])
                #expect(wrong.status == 401, "\(method) \(target) with a wrong token")
                let bare = try await server.request(method, target, headers: ["Authorization": "s3cret"])
                #expect(bare.status == 401, "\(method) \(target) with the token but no Bearer")
                // Compared whole, in constant time: a prefix, a longer value and one wrong last byte are refused.
                for near in ["Bearer s3cre", "Bearer s3cret2", "Bearer s3cres", "Bearer S3cret"] {
                    let almost = try await server.request(method, target, headers: ["Authorization": near])
                    #expect(almost.status == 401, "\(method) \(target) with \(near)")
                }
                let right = try await server.request(method, target, headers: ["Authorization": "Bearer s3cret"])
                #expect(right.status == 200, "\(method) \(target) with the token")
            }
            // The scenario did not change through an unauthorized call.
            _ = try await server.request("PUT", "/__mockd/scenario", body: Data(#"{"scenario": "error"}"#.utf8))
            #expect(server.server.runtime.runtimeScenario() == "default")
            // Mocks need no token.
            #expect(try await server.request("GET", "/api/users").status == 200)
        }
    }

    @Test func adminDisabled_HealthIsAPlain404Miss() async throws {
        try await Self.withServer(configure: { $0.adminEnabled = false }) { server in
            let response = try await server.request("GET", "/__mockd/health")
            #expect(response.status == 404)
            #expect(response.header("X-Mockd-Source") == "404")
            let report = try response.jsonObject()
            let path = "/__mockd/health"
            #expect(report["file"] as? String == "mock" + path.replacingOccurrences(of: "/", with: "_") + "_get.json")
            #expect(report["path"] as? String == path)
            #expect(try await server.request("GET", "/__mockd/routes").status == 404)
        }
    }

    /// With `--no-admin`, `/__mockd/` is a path like any other: a mock there answers, and the
    /// request is journaled like every mocked one (the adapter decides admin-ness once).
    @Test func adminDisabled_AMockUnderThePrefixIsServedAndJournaled() async throws {
        let files = Self.files.merging(["mock___mockd_health_get.json": #"{"mocked": true}"#]) { $1 }
        try await withRouteServer(files: files, tables: ["a.json": Self.table], configure: { $0.adminEnabled = false }) { server in
            let response = try await server.request("GET", "/__mockd/health")
            #expect(response.status == 200)
            #expect(response.text == #"{"mocked": true}"#)
            #expect(response.header("X-Mockd-Source") == "file mock___mockd_health_get.json")
            let entries = server.server.journal.entries()
            #expect(entries.map(\.path) == ["/__mockd/health"])
            #expect(entries.first?.kind == .file)
        }
    }

    @Test func journal_KeepsTheNewestWithinItsBound() async throws {
        try await Self.withServer(journal: RequestJournal(capacity: 3)) { server in
            for index in 1...5 { _ = try await server.request("GET", "/api/users?n=\(index)") }
            let entries = try #require(try await server.admin("GET", "/__mockd/requests").object["requests"] as? [[String: Any]])
            #expect(entries.map { $0["query"] as? String } == ["n=3", "n=4", "n=5"])
        }
    }

    @Test func journal_EntriesAndFilters() async throws {
        try await Self.withServer { server in
            _ = try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "A"])
            _ = try await server.request(
                "POST", "/api/v1/login", headers: ["X-Mock-Session": "A", "Content-Type": "application/json"],
                body: Data(#"{"user": "ada"}"#.utf8))
            _ = try await server.request("GET", "/api/users", headers: ["X-Mock-Scenario": "empty", "X-Mock-Session": "B"])
            _ = try await server.request("GET", "/api/nothing")

            let all = try await server.admin("GET", "/__mockd/requests")
            #expect(Self.paths(all.object) == ["/api/users", "/api/v1/login", "/api/users", "/api/nothing"])
            let entries = try #require(all.object["requests"] as? [[String: Any]])
            let login = entries[1]
            #expect(login["method"] as? String == "POST")
            #expect(login["body"] as? String == #"{"user": "ada"}"#)
            #expect(login["session"] as? String == "A")
            #expect(login["status"] as? Int == 200)
            #expect(login["source"] as? String == "file mock_api_v1_login_post.json")
            #expect(login["kind"] as? String == "file")
            #expect((login["headers"] as? [String: String])?["X-Mock-Session"] == "A")
            #expect((login["durationMs"] as? Double).map { $0 >= 0 } == true)
            #expect(
                (login["time"] as? String).flatMap { ISO8601DateFormatter.withFractionalSeconds.date(from: $0) } != nil,
                "\(login["time"] ?? "nil")")
            #expect(entries[2]["scenario"] as? String == "empty")
            #expect(entries[3]["status"] as? Int == 404)
            #expect(entries[3]["source"] as? String == "404")
            #expect(entries[3]["kind"] as? String == "notFound")

            #expect(Self.paths(try await server.admin("GET", "/__mockd/requests?method=POST").object) == ["/api/v1/login"])
            #expect(Self.paths(try await server.admin("GET", "/__mockd/requests?session=A").object) == ["/api/users", "/api/v1/login"])
            #expect(Self.paths(try await server.admin("GET", "/__mockd/requests?path=/api/v1/*").object) == ["/api/v1/login"])
            #expect(
                Self.paths(try await server.admin("GET", "/__mockd/requests?method=GET&limit=2").object) == ["/api/users", "/api/nothing"])
            #expect(try await server.admin("GET", "/__mockd/requests?limit=many").status == 400)
        }
    }

    @Test func journal_CapsTheBody() async throws {
        try await Self.withServer(journal: RequestJournal(capacity: 10, bodyLimit: 8)) { server in
            _ = try await server.request("POST", "/api/v1/login", body: Data("0123456789abcdef".utf8))
            _ = try await server.request("POST", "/api/v1/login", body: Data("short".utf8))
            let entries = try #require(try await server.admin("GET", "/__mockd/requests").object["requests"] as? [[String: Any]])
            #expect(entries.map { $0["body"] as? String } == ["01234567", "short"])
            #expect(entries.map { $0["bodyTruncated"] as? Bool } == [true, nil])
        }
    }

    @Test func sessionScenario_AffectsOnlyThatSession() async throws {
        try await Self.withServer { server in
            let set = try await server.admin("PUT", "/__mockd/scenario", body: #"{"scenario": "empty", "session": "sim-3"}"#)
            #expect(set.status == 200)
            let overlay = Array(Self.files["scenarios/empty/mock_api_users_get.json"]!.utf8)
            let base = Array(Self.files["users/mock_api_users_get.json"]!.utf8)
            #expect(try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "sim-3"]).body == overlay)
            #expect(try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "sim-4"]).body == base)
            #expect(try await server.request("GET", "/api/users").body == base)
            let read = try await server.admin("GET", "/__mockd/scenario?session=sim-3")
            #expect(read.object["scenario"] as? String == "empty")
            #expect(try await server.admin("GET", "/__mockd/scenario").object["scenario"] as? String == "default")
            // The header still wins inside the session.
            #expect(
                try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "sim-3", "X-Mock-Scenario": "default"]).body
                    == base)
        }
    }

    @Test func reset_RestartsSequences() async throws {
        try await Self.withServer { server async throws in
            #expect(try await server.request("GET", "/api/seq").text == "one")
            #expect(try await server.request("GET", "/api/seq").text == "two")
            #expect(try await server.request("GET", "/api/seq", headers: ["X-Mock-Session": "S"]).text == "one")
            #expect(try await server.admin("POST", "/__mockd/reset").status == 200)
            #expect(try await server.request("GET", "/api/seq").text == "one")
            #expect(try await server.request("GET", "/api/seq", headers: ["X-Mock-Session": "S"]).text == "one")
            #expect(Self.paths(try await server.admin("GET", "/__mockd/requests").object) == ["/api/seq", "/api/seq"])
        }
    }

    /// A mock file answers every session: asked for one session's mock, mockd must write
    /// nothing rather than a file that answers all of them.
    @Test func aMockForOneSessionIsRefusedAndNoFileIsWritten() async throws {
        try await Self.withServer { server in
            let before = try DashboardHTTPTests.filesUnder(server.root + "/..")
            let refused = try await server.admin(
                "POST", "/__mockd/mocks", body: #"{"method": "GET", "path": "/api/feed", "body": "{}", "session": "sim-3"}"#)
            #expect(refused.status == 400)
            #expect((refused.object["error"] as? String)?.hasPrefix(#"unknown key "session""#) == true, "\(refused.object)")
            #expect(refused.object["known"] as? [String] == ["method", "path", "body", "status", "scenario"])
            #expect(try DashboardHTTPTests.filesUnder(server.root + "/..") == before)
            #expect(!FileManager.default.fileExists(atPath: server.root + "/mock_api_feed_get.json"))
            #expect(try await server.request("GET", "/api/feed", headers: ["X-Mock-Session": "sim-4"]).status == 404)
        }
    }
}

extension ISO8601DateFormatter {
    static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
