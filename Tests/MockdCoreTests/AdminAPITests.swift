import Foundation
import MockdCore
import MockdLock
import Testing
import Synchronization

/// The admin API without sockets: `AdminAPI.call(for:)` for every endpoint, and the journal's bound.
@Suite("Admin API")
struct AdminAPITests {
    static let files: [String: String] = [
        "mock_api_users_get.json": #"[{"id": 1}]"#,
        "scenarios/empty/mock_api_users_get.json": "[]",
    ]
    static let table = routeTable(
        #"{"name": "error users", "scenario": "error", "method": "GET", "path": "/api/users", "response": {"status": 500, "json": {"error": "boom"}}}"#,
        #"{"method": "GET", "path": "/api/seq", "responses": [{"status": 201}, {"status": 202}], "sequence": "cycle"}"#)

    /// Everything a handler call needs, built around one snapshot.
    struct Harness {
        let snapshot: Snapshot
        let routesFolder: String
        let rootFolder: String
        let state: RuntimeState
        let journal: RequestJournal
        let reloads = Counter()
        var reloadReport = ReloadReport(
            time: 1_700_000_000, ok: true, files: 3, routes: 4, errors: [], durationMilliseconds: 1.25, trigger: "admin")
        var lastReload: ReloadReport?
        var uptime = 12.5

        init(startupScenario: String = Scenario.default, journal: RequestJournal = RequestJournal()) throws {
            var folders = ("", "")
            snapshot = try withRouteFixture(files: AdminAPITests.files, tables: ["a.json": AdminAPITests.table]) { fixture in
                folders = (fixture.root, fixture.routes)
                return try #require(fixture.load().snapshot)
            }
            (rootFolder, routesFolder) = folders
            state = RuntimeState(startupScenario: startupScenario)
            self.journal = journal
        }

        var context: AdminAPI.Context {
            AdminAPI.Context(snapshot: snapshot, state: state, journal: journal, uptimeSeconds: uptime, lastReload: lastReload)
        }

        /// Carries out the effects a step names as a server would, with no disk and no socket: a
        /// reload counts and answers `reloadReport`; nothing else is available here.
        func carryOut(_ step: AdminStep) -> BuiltResponse {
            var next = step
            while true {
                switch next {
                case .answer(let response): return response
                case .reload(_, let then):
                    reloads.increment()
                    next = then(reloadReport)
                case .writeMockFile(_, _, let then), .writeRouteTable(_, _, let then): next = then(.failed("no disk in core tests"))
                case .openSessionPort(_, let then): next = then(.failure(ErrorAnswer(501, "no ports in core tests")))
                case .closeSessionPort(_, let then): next = then(false)
                case .readFiles(let then): next = then(MemoryFiles([:]))
                case .webSockets(let command, let then):
                    switch command {
                    case .send: next = then(.sent(0))
                    case .list: next = then(.connections([]))
                    case .close: next = then(.closed(false))
                    }
                case .push(_, let then): next = then(.done(PushOutcome(ending: .exited(0))))
                case .logWarning(_, let then): next = then()
                }
            }
        }

        func call(_ method: String, _ target: String, body: String = "") -> BuiltResponse {
            var path = target, query: [(String, String?)] = []
            if let mark = target.firstIndex(of: "?") {
                path = String(target[..<mark])
                query = target[target.index(after: mark)...].split(separator: "&").map { pair in
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    return (String(parts[0]), parts.count > 1 ? String(parts[1]) : nil)
                }
            }
            return carryOut(AdminAPI.call(for: request(method, path, query: query, body: body)).answer(context))
        }

        func resolve(_ path: String, session: String? = nil) -> Resolution {
            Resolver(snapshot: snapshot, state: state).resolve(
                request("GET", path, headers: session.map { [("X-Mock-Session", $0)] } ?? []))
        }
    }

    final class Counter: Sendable {
        private let count = Lock(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    static func object(_ response: BuiltResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let text = String(decoding: response.body, as: UTF8.self)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "not a JSON object: \(text)",
            sourceLocation: sourceLocation)
    }

    static func entry(_ path: String, method: String = "GET", session: String? = nil, body: String = "", truncated: Bool = false)
        -> RequestJournal.Entry
    {
        RequestJournal.Entry(
            time: 1_700_000_000.5, method: method, path: path, query: "a=1",
            headers: [HTTPHeader("Accept", "*/*"), HTTPHeader("X-Many", "1"), HTTPHeader("X-Many", "2")],
            body: Array(body.utf8), bodyTruncated: truncated, scenario: "default", session: session,
            source: "file mock_x_get.json", kind: .file, status: 200, durationMicroseconds: 1500)
    }

    // MARK: - health

    @Test(
        "which paths are the admin API's",
        arguments: [
            ("/__mockd", true), ("/__mockd/", true), ("/__mockd/health", true), ("/__mockd/requests?x=1", true),
            ("/__mockdx", false), ("/__mock", false), ("/_", false), ("/", false), ("", false), ("/api/__mockd/health", false),
            ("/__MOCKD/health", false), ("/_é_mockd/x", false),
        ])
    func isAdminPath(path: String, expected: Bool) {
        #expect(AdminAPI.isAdminPath(path) == expected)
    }

    @Test func health_CountsScenarioUptimeAndNoReloadYet() throws {
        let harness = try Harness()
        let response = harness.call("GET", "/__mockd/health")
        #expect(response.status == 200)
        #expect(response.headers.first(named: "Content-Type") == ContentType.json)
        #expect(response.headers.first(named: "Cache-Control") == "no-store")
        let body = try Self.object(response)
        #expect(body["status"] as? String == "ok")
        #expect(body["files"] as? Int == harness.snapshot.fileCount)
        #expect(body["files"] as? Int == Self.files.count)
        #expect(body["routes"] as? Int == 2)
        #expect(body["scenario"] as? String == "default")
        #expect(body["uptime"] as? Double == 12.5)
        #expect(body["lastReload"] is NSNull)
        // HEAD and a trailing slash reach it too.
        #expect(harness.call("HEAD", "/__mockd/health/").status == 200)
    }

    @Test func health_ShowsTheLastReload() throws {
        var harness = try Harness()
        harness.lastReload = ReloadReport(
            time: 1_700_000_000, ok: false, files: 3, routes: 2, errors: ["routes/a.json: line 1, column 2: invalid JSON"],
            durationMilliseconds: 2.26, trigger: "watch")
        let last = try #require(try Self.object(harness.call("GET", "/__mockd/health"))["lastReload"] as? [String: Any])
        #expect(last["status"] as? String == "failed")
        #expect(last["trigger"] as? String == "watch")
        #expect(last["errors"] as? [String] == ["routes/a.json: line 1, column 2: invalid JSON"])
        #expect(last["time"] as? String == "2023-11-14T22:13:20.000Z")
        #expect(last["durationMs"] as? Double == 2.3)
    }

    // MARK: - routes

    @Test func routes_ListsRoutesFilesAndScenarios() throws {
        let harness = try Harness()
        let response = harness.call("GET", "/__mockd/routes")
        #expect(response.status == 200)
        let body = try Self.object(response)
        let routes = try #require(body["routes"] as? [[String: Any]])
        #expect(routes.count == 2)
        #expect(routes[0]["name"] as? String == "error users")
        #expect(routes[0]["method"] as? String == "GET")
        #expect(routes[0]["path"] as? String == "/api/users")
        #expect(routes[0]["scenario"] as? String == "error")
        #expect(routes[0]["source"] as? String == harness.routesFolder + "/a.json#0")
        #expect(routes[0]["sequence"] is NSNull)
        #expect(routes[1]["responses"] as? Int == 2)
        #expect(routes[1]["sequence"] as? String == "cycle")
        #expect(routes[1]["name"] is NSNull)
        let files = try #require(body["files"] as? [[String: Any]])
        #expect(files.count == 2)
        #expect(
            files.contains {
                $0["file"] as? String == "mock_api_users_get.json" && $0["scenario"] as? String == "empty"
                    && $0["source"] as? String == harness.rootFolder + "/scenarios/empty/mock_api_users_get.json"
            })
        #expect(
            files.contains {
                $0["file"] as? String == "mock_api_users_get.json" && $0["scenario"] is NSNull
                    && $0["method"] as? String == "GET" && $0["source"] as? String == harness.rootFolder + "/mock_api_users_get.json"
            })
        #expect(body["scenarios"] as? [String] == ["empty", "error"])
    }

    // MARK: - scenario

    @Test func scenario_GetListsTheKnownOnes() throws {
        let harness = try Harness(startupScenario: "staging")
        let body = try Self.object(harness.call("GET", "/__mockd/scenario"))
        #expect(body["scenario"] as? String == "staging")
        #expect(body["session"] is NSNull)
        #expect(body["known"] as? [String] == ["default", "empty", "error", "staging"])
    }

    @Test func scenario_PutSetsTheGlobalOne() throws {
        let harness = try Harness()
        let response = harness.call("PUT", "/__mockd/scenario", body: #"{"scenario": "error"}"#)
        #expect(response.status == 200)
        let body = try Self.object(response)
        #expect(body["scenario"] as? String == "error")
        #expect(body["session"] is NSNull)
        #expect(harness.state.runtimeScenario() == "error")
        #expect(harness.resolve("/api/users").status == 500)
        #expect(try Self.object(harness.call("GET", "/__mockd/scenario"))["scenario"] as? String == "error")
    }

    @Test func scenario_PutWithASessionSetsOnlyThatSession() throws {
        let harness = try Harness()
        let response = harness.call("PUT", "/__mockd/scenario", body: #"{"scenario": "empty", "session": "sim-3"}"#)
        #expect(response.status == 200)
        #expect(try Self.object(response)["session"] as? String == "sim-3")
        #expect(harness.state.runtimeScenario(session: "sim-3") == "empty")
        #expect(harness.state.runtimeScenario() == "default")
        #expect(harness.resolve("/api/users", session: "sim-3").bodyText == "[]")
        #expect(harness.resolve("/api/users", session: "sim-4").bodyText == Self.files["mock_api_users_get.json"])
        let read = try Self.object(harness.call("GET", "/__mockd/scenario?session=sim-3"))
        #expect(read["scenario"] as? String == "empty")
        #expect(read["session"] as? String == "sim-3")
    }

    @Test func scenario_UnknownNameIs400ListingTheKnownOnes() throws {
        let harness = try Harness()
        let response = harness.call("PUT", "/__mockd/scenario", body: #"{"scenario": "nope"}"#)
        #expect(response.status == 400)
        let body = try Self.object(response)
        #expect(body["error"] as? String == #"unknown scenario "nope""#)
        #expect(body["known"] as? [String] == ["default", "empty", "error"])
        #expect(harness.state.runtimeScenario() == "default")
    }

    @Test(
        "scenario: a malformed body is 400",
        arguments: [
            "", "not json", #"{"name": "error"}"#, #"{"scenario": ""}"#,
            #"{"scenario": 3}"#, #"{"scenario": "error", "session": 3}"#,
        ])
    func scenario_MalformedBodyIs400(body: String) throws {
        let harness = try Harness()
        let response = harness.call("PUT", "/__mockd/scenario", body: body)
        #expect(response.status == 400)
        #expect((try Self.object(response)["error"] as? String)?.isEmpty == false)
        #expect(harness.state.runtimeScenario() == "default")
    }

    // MARK: - requests

    static func fiveEntries(into journal: RequestJournal) {
        journal.append(entry("/api/users", session: "A"))
        journal.append(entry("/api/v1/login", method: "POST", body: #"{"u": 1}"#))
        journal.append(entry("/api/users/1", session: "B"))
        journal.append(entry("/api/v1/logout", method: "POST", session: "A"))
        journal.append(entry("/api/episodes"))
    }

    @Test(
        "requests: filters and limit",
        arguments: [
            ("", ["/api/users", "/api/v1/login", "/api/users/1", "/api/v1/logout", "/api/episodes"]),
            ("?method=post", ["/api/v1/login", "/api/v1/logout"]),
            ("?path=/api/v1/*", ["/api/v1/login", "/api/v1/logout"]),
            ("?path=/api/users", ["/api/users"]),
            ("?path=/api/users*", ["/api/users", "/api/users/1"]),
            ("?session=A", ["/api/users", "/api/v1/logout"]),
            ("?limit=2", ["/api/v1/logout", "/api/episodes"]),
            ("?limit=0", []),
            ("?method=GET&limit=1", ["/api/episodes"]),
            ("?session=A&method=GET", ["/api/users"]),
            ("?limit=", ["/api/users", "/api/v1/login", "/api/users/1", "/api/v1/logout", "/api/episodes"]),
        ] as [(String, [String])])
    func requests_Filters(query: String, expected: [String]) throws {
        let harness = try Harness()
        Self.fiveEntries(into: harness.journal)
        let response = harness.call("GET", "/__mockd/requests" + query)
        #expect(response.status == 200)
        let entries = try #require(try Self.object(response)["requests"] as? [[String: Any]])
        #expect(entries.map { $0["path"] as? String } == expected)
    }

    @Test("requests: a bad limit is 400", arguments: ["abc", "-1", "1.5"])
    func requests_BadLimitIs400(limit: String) throws {
        let harness = try Harness()
        let response = harness.call("GET", "/__mockd/requests?limit=" + limit)
        #expect(response.status == 400)
        #expect(try Self.object(response)["error"] as? String == #"limit must be a whole number, found "\#(limit)""#)
    }

    @Test func requests_EntryHasEveryField() throws {
        let harness = try Harness()
        harness.journal.append(Self.entry("/api/v1/login", method: "POST", session: "S", body: #"{"u": 1}"#, truncated: true))
        let entries = try #require(try Self.object(harness.call("GET", "/__mockd/requests"))["requests"] as? [[String: Any]])
        let entry = try #require(entries.first)
        #expect(entry["time"] as? String == "2023-11-14T22:13:20.500Z")
        #expect(entry["method"] as? String == "POST")
        #expect(entry["path"] as? String == "/api/v1/login")
        #expect(entry["query"] as? String == "a=1")
        #expect(entry["headers"] as? [String: String] == ["Accept": "*/*", "X-Many": "1, 2"])
        #expect(entry["body"] as? String == #"{"u": 1}"#)
        #expect(entry["bodyTruncated"] as? Bool == true)
        #expect(entry["scenario"] as? String == "default")
        #expect(entry["session"] as? String == "S")
        #expect(entry["source"] as? String == "file mock_x_get.json")
        #expect(entry["status"] as? Int == 200)
        #expect(entry["durationMs"] as? Double == 1.5)
    }

    @Test func requests_DeleteClearsTheJournal() throws {
        let harness = try Harness()
        Self.fiveEntries(into: harness.journal)
        let response = harness.call("DELETE", "/__mockd/requests")
        #expect(response.status == 200)
        #expect(try Self.object(response)["cleared"] as? Int == 5)
        #expect(harness.journal.entries().isEmpty)
        #expect((try Self.object(harness.call("GET", "/__mockd/requests"))["requests"] as? [Any])?.isEmpty == true)
    }

    // MARK: - reset

    @Test func reset_SequencesJournalAndScenariosStartOver() throws {
        let harness = try Harness()
        harness.state.setScenario("error")
        harness.state.setScenario("empty", session: "A")
        #expect(harness.resolve("/api/seq").status == 201)
        #expect(harness.resolve("/api/seq", session: "A").status == 201)
        Self.fiveEntries(into: harness.journal)

        let response = harness.call("POST", "/__mockd/reset")
        #expect(response.status == 200)
        let body = try Self.object(response)
        #expect(body["reset"] as? Bool == true)
        #expect(body["scenario"] as? String == "default")
        #expect(harness.state.runtimeScenario() == "default")
        #expect(harness.state.runtimeScenario(session: "A") == "default")
        #expect(harness.journal.entries().isEmpty)
        #expect(harness.resolve("/api/seq").status == 201)
        #expect(harness.resolve("/api/seq", session: "A").status == 201)
    }

    @Test func reset_GoesBackToTheStartupScenario() throws {
        let harness = try Harness(startupScenario: "empty")
        harness.state.setScenario("error")
        #expect(try Self.object(harness.call("POST", "/__mockd/reset"))["scenario"] as? String == "empty")
    }

    // MARK: - reload

    @Test func reload_OkIs200WithTheReport() throws {
        let harness = try Harness()
        let response = harness.call("POST", "/__mockd/reload")
        #expect(response.status == 200)
        #expect(harness.reloads.value == 1)
        let body = try Self.object(response)
        #expect(body["status"] as? String == "ok")
        #expect(body["files"] as? Int == 3)
        #expect(body["routes"] as? Int == 4)
        #expect(body["trigger"] as? String == "admin")
        #expect(body["errors"] as? [String] == [])
        #expect(body["durationMs"] as? Double == 1.3)
    }

    @Test func reload_FailedIs422WithEveryError() throws {
        var harness = try Harness()
        harness.reloadReport = ReloadReport(
            time: 1_700_000_000, ok: false, files: 2, routes: 2,
            errors: ["routes/a.json: routes[0].response.status: expected an integer 100-599, found \"ok\"", "second"],
            durationMilliseconds: 1, trigger: "admin")
        let response = harness.call("POST", "/__mockd/reload")
        #expect(response.status == 422)
        let body = try Self.object(response)
        #expect(body["status"] as? String == "failed")
        #expect(body["errors"] as? [String] == harness.reloadReport.errors)
    }

    // MARK: - wrong method, unknown endpoint

    @Test(
        "a known path with another method is 405 with Allow",
        arguments: [
            ("DELETE", "/__mockd/health", "GET"),
            ("POST", "/__mockd/routes", "GET"),
            ("DELETE", "/__mockd/scenario", "GET, PUT"),
            ("PUT", "/__mockd/requests", "GET, DELETE"),
            ("GET", "/__mockd/reset", "POST"),
            ("GET", "/__mockd/reload", "POST"),
        ])
    func wrongMethod_Is405WithAllow(method: String, path: String, allow: String) throws {
        let harness = try Harness()
        let response = harness.call(method, path)
        #expect(response.status == 405)
        #expect(response.headers.first(named: "Allow") == allow)
        let body = try Self.object(response)
        #expect(body["error"] as? String == "\(method) is not allowed on \(path)")
        #expect(body["allowed"] as? [String] == allow.components(separatedBy: ", "))
        // Nothing happened.
        #expect(harness.reloads.value == 0)
    }

    // `/__mockd` itself redirects to the dashboard: `DashboardHTTPTests`.
    @Test("an unknown endpoint is 404 listing the endpoints", arguments: ["/__mockd/nope", "/__mockd/health/extra"])
    func unknownEndpoint_Is404(path: String) throws {
        let harness = try Harness()
        let response = harness.call("GET", path)
        #expect(response.status == 404)
        let body = try Self.object(response)
        #expect(body["error"] as? String == "no admin endpoint GET \(path)")
        #expect(
            body["endpoints"] as? [String] == [
                "GET /__mockd/health", "GET /__mockd/routes", "GET /__mockd/scenario", "PUT /__mockd/scenario",
                "GET /__mockd/requests", "DELETE /__mockd/requests", "POST /__mockd/reset", "POST /__mockd/reload",
                "GET /__mockd/", "GET /__mockd/sources", "GET /__mockd/source", "GET /__mockd/events", "POST /__mockd/mocks",
                "POST /__mockd/route-tables",
                "POST /__mockd/sessions", "GET /__mockd/sessions", "DELETE /__mockd/sessions/{id}",
                "POST /__mockd/stubs", "GET /__mockd/stubs", "DELETE /__mockd/stubs/{id}", "GET /__mockd/resources",
                "POST /__mockd/ws/send", "GET /__mockd/ws/connections", "DELETE /__mockd/ws/connections/{id}",
                "GET /__mockd/ws/messages", "POST /__mockd/push",
            ])
    }
}

@Suite("Request journal")
struct RequestJournalTests {
    @Test func boundedRing_KeepsTheNewestOldestFirst() {
        let journal = RequestJournal(capacity: 3)
        for index in 1...5 { journal.append(AdminAPITests.entry("/\(index)")) }
        #expect(journal.entries().map(\.path) == ["/3", "/4", "/5"])
        // Around the ring once more.
        for index in 6...9 { journal.append(AdminAPITests.entry("/\(index)")) }
        #expect(journal.entries().map(\.path) == ["/7", "/8", "/9"])
        journal.clear()
        #expect(journal.entries().isEmpty)
        journal.append(AdminAPITests.entry("/10"))
        #expect(journal.entries().map(\.path) == ["/10"])
    }

    @Test func capacityZero_KeepsNothing() {
        let journal = RequestJournal(capacity: 0)
        #expect(!journal.isEnabled)
        journal.append(AdminAPITests.entry("/1"))
        #expect(journal.entries().isEmpty)
    }

    @Test func concurrentAppends_KeepExactlyCapacity() {
        let journal = RequestJournal(capacity: 50)
        DispatchQueue.concurrentPerform(iterations: 500) { index in journal.append(AdminAPITests.entry("/\(index)")) }
        let entries = journal.entries()
        #expect(entries.count == 50)
        #expect(Set(entries.map(\.path)).count == 50)
    }

    @Test func bodyLimit_IsKeptAsGiven() {
        #expect(RequestJournal(capacity: 3, bodyLimit: 8).bodyLimit == 8)
        #expect(RequestJournal().bodyLimit == 64 * 1024)
        #expect(RequestJournal().capacity == 1000)
    }
}
