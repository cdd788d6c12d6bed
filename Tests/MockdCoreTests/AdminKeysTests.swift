import Foundation
@testable import MockdCore
import Testing

/// Every admin call that reads a JSON body or query arguments refuses a key it does not read:
/// a 400 with the keys it does read and, for a near miss, the one meant. A misspelt key must
/// fail the test that sent it, not act for every session or filter nothing.
@Suite("Admin keys")
struct AdminKeysTests {
    static let files: [String: String] = [
        "mock_api_users_get.json": #"[{"id": 1}]"#,
        "scenarios/empty/mock_api_users_get.json": "[]",
    ]

    /// The admin API over an in-memory snapshot, with the state and journal a call may change.
    struct Admin {
        let snapshot: Snapshot
        let state = RuntimeState()
        let journal = RequestJournal()

        /// The answer; a call that names an effect instead answers status 0, which no check here expects.
        func call(_ method: String, _ target: String, body: String = "") -> BuiltResponse {
            let step = AdminAPI.call(for: AdminKeysTests.request(method, target, body: body)).answer(
                AdminAPI.Context(snapshot: snapshot, state: state, journal: journal, uptimeSeconds: 0))
            return step.answer ?? BuiltResponse(status: 0, origin: .admin)
        }
    }

    static func withAdmin<T>(_ body: (Admin) throws -> T) throws -> T {
        try withSnapshot(files) { snapshot, _ in try body(Admin(snapshot: snapshot)) }
    }

    /// `target` with its query (`/__mockd/events?after=0&wiat=5`) as the adapter hands it over.
    static func request(_ method: String, _ target: String, body: String = "") -> MockRequest {
        let parts = target.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? parts[1].split(separator: "&").map { String($0) } : []
        return MockRequest(
            method: method, path: String(parts[0]),
            query: query.map { pair in
                let halves = pair.split(separator: "=", maxSplits: 1)
                return (name: String(halves[0]), value: halves.count > 1 ? String(halves[1]) : nil)
            },
            rawQuery: query.joined(separator: "&"), headers: hostForAdmin(String(parts[0])), body: Array(body.utf8))
    }

    static func object(_ response: BuiltResponse) throws -> [String: Any] {
        try AdminAPITests.object(response)
    }

    static let routeKeys = [
        "name", "method", "path", "pathPattern", "match", "graphql", "scenario", "response", "responses", "sequence", "websocket",
    ]

    // MARK: - what was accepted before

    /// A mock file answers every session: a mock for one session must not become one for all.
    @Test func mocks_ASessionIsRefusedRatherThanWrittenForEverySession() throws {
        try withSnapshot(Self.files) { snapshot, _ in
            let body = #"{"method": "GET", "path": "/api/feed", "body": "{}", "session": "sim-3"}"#
            let decoded = MockCreation.decode(Array(body.utf8), snapshot: snapshot)
            guard case .failure(let refusal) = decoded else {
                Issue.record("decoded as \(decoded)")
                return
            }
            #expect(refusal.status == 400)
            #expect(refusal.message.hasPrefix(#"unknown key "session""#), "\(refusal.message)")
            // Where a test goes instead.
            #expect(refusal.message.contains("POST /__mockd/stubs"), "\(refusal.message)")
        }
    }

    @Test func events_AnUnknownArgumentIsRefusedAtOnceRatherThanIgnored() throws {
        try Self.withAdmin { admin in
            let call = AdminAPI.call(for: Self.request("GET", "/__mockd/events?after=0&wiat=5"))
            #expect(call.work == .now)
            let response = admin.call("GET", "/__mockd/events?after=0&wiat=5")
            #expect(response.status == 400)
            let body = try Self.object(response)
            #expect(body["error"] as? String == #"unknown query argument "wiat"; did you mean "wait"?"#)
            #expect(body["known"] as? [String] == ["after", "state", "wait"])
        }
    }

    /// `session` is read by the stub, the other keys by the route inside it: both are known.
    @Test func stubs_AMisspeltSessionIsRefusedWithSessionAmongTheKnownKeys() throws {
        try Self.withAdmin { admin in
            let response = admin.call(
                "POST", "/__mockd/stubs", body: #"{"method": "GET", "path": "/api/users", "response": {"json": []}, "sesion": "A"}"#)
            #expect(response.status == 400)
            let body = try Self.object(response)
            #expect(body["error"] as? String == #"unknown key "sesion"; did you mean "session"?"#)
            #expect(body["known"] as? [String] == Self.routeKeys + ["session"])
            #expect(admin.state.stubs.all().isEmpty)
        }
    }

    // MARK: - one check for every call

    struct Misspelt: Sendable, CustomTestStringConvertible {
        let method: String
        let target: String
        var body = ""
        /// What the 400 says and lists.
        let error: String
        let known: [String]
        var testDescription: String { "\(method) \(target) \(body)" }
    }

    static let misspelt: [Misspelt] = [
        Misspelt(
            method: "PUT", target: "/__mockd/scenario", body: #"{"scenario": "empty", "sesion": "A"}"#,
            error: #"unknown key "sesion"; did you mean "session"?"#, known: ["scenario", "session"]),
        Misspelt(
            method: "PUT", target: "/__mockd/scenario", body: #"{"scenaro": "empty"}"#,
            error: #"unknown key "scenaro"; did you mean "scenario"?"#, known: ["scenario", "session"]),
        Misspelt(
            method: "GET", target: "/__mockd/scenario?sesion=A",
            error: #"unknown query argument "sesion"; did you mean "session"?"#, known: ["session"]),
        Misspelt(
            method: "GET", target: "/__mockd/requests?methd=POST",
            error: #"unknown query argument "methd"; did you mean "method"?"#,
            known: ["method", "path", "session", "status", "kind", "limit", "count", "wait"]),
        Misspelt(
            method: "DELETE", target: "/__mockd/requests?sesion=A",
            error: #"unknown query argument "sesion"; did you mean "session"?"#, known: ["session"]),
        Misspelt(
            method: "POST", target: "/__mockd/reset", body: #"{"sesion": "A"}"#,
            error: #"unknown key "sesion"; did you mean "session"?"#, known: ["session"]),
        Misspelt(
            method: "GET", target: "/__mockd/source?orign=mock_api_users_get.json",
            error: #"unknown query argument "orign"; did you mean "origin"?"#, known: ["origin"]),
        Misspelt(
            method: "GET", target: "/__mockd/events?after=0&stat=1",
            error: #"unknown query argument "stat"; did you mean "state"?"#, known: ["after", "state", "wait"]),
        Misspelt(
            method: "POST", target: "/__mockd/stubs", body: #"{"method": "GET", "path": "/x", "Session": "A"}"#,
            error: #"unknown key "Session"; did you mean "session"?"#, known: routeKeys + ["session"]),
        Misspelt(
            method: "GET", target: "/__mockd/resources?path=/api/items&sesion=A",
            error: #"unknown query argument "sesion"; did you mean "session"?"#, known: ["path", "session", "scenario"]),
    ]

    @Test(arguments: misspelt)
    func aMisspeltKeyIsRefusedNamingTheOneMeantAndNothingChanges(_ misspelt: Misspelt) throws {
        try Self.withAdmin { admin in
            admin.journal.append(AdminAPITests.entry("/api/users"))
            let response = admin.call(misspelt.method, misspelt.target, body: misspelt.body)
            #expect(response.status == 400)
            let body = try Self.object(response)
            #expect(body["error"] as? String == misspelt.error)
            #expect(body["known"] as? [String] == misspelt.known)
            #expect(admin.state.runtimeScenario() == "default")
            #expect(admin.state.runtimeScenario(session: "A") == "default")
            #expect(admin.state.stubs.all().isEmpty)
            #expect(admin.journal.entries().map(\.path) == ["/api/users"])
        }
    }

    @Test func severalUnknownKeysAreNamedTogetherEachWithTheOneMeant() throws {
        try Self.withAdmin { admin in
            let response = admin.call("PUT", "/__mockd/scenario", body: #"{"scenario": "empty", "sesion": "A", "colour": "red"}"#)
            #expect(response.status == 400)
            let body = try Self.object(response)
            #expect(body["error"] as? String == #"unknown keys "sesion", "colour"; did you mean "session" for "sesion"?"#)
            #expect(body["known"] as? [String] == ["scenario", "session"])
        }
    }

    @Test func aKeyFarFromEveryKnownOneIsRefusedWithoutAGuess() throws {
        try Self.withAdmin { admin in
            let response = admin.call("GET", "/__mockd/requests?colour=red")
            #expect(response.status == 400)
            let body = try Self.object(response)
            #expect(body["error"] as? String == #"unknown query argument "colour""#)
            #expect(body["known"] as? [String] == ["method", "path", "session", "status", "kind", "limit", "count", "wait"])
        }
    }

    @Test func knownKeysStillAct() throws {
        try Self.withAdmin { admin in
            #expect(admin.call("GET", "/__mockd/events?after=0&state=0&wait=0").status == 200)
            #expect(admin.call("GET", "/__mockd/scenario?session=A").status == 200)
            #expect(admin.call("GET", "/__mockd/source?origin=mock_api_users_get.json").status == 200)
            let stub = admin.call(
                "POST", "/__mockd/stubs", body: #"{"method": "GET", "path": "/api/users", "response": {"json": []}, "session": "A"}"#)
            #expect(stub.status == 201)
            #expect(admin.state.stubs.all().map(\.session) == ["A"])
        }
    }
}
